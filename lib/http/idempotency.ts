import { createHash } from 'node:crypto';
import stableStringify from 'fast-json-stable-stringify';
import { now } from '#lib/platform/clock';
import { ApiError } from '#lib/http/errors';
import { galleryOfCheckoutToken } from '#lib/payments/store/checkout-tokens';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
} from '#lib/idempotency/store/idempotency-records';
import { CHECKOUT_TOKEN_MAX_LENGTH } from '#lib/payments/rules/payment-limits';
import {
  type IdempotencyKeyMaterial,
  type StoredAnswer,
  deriveIdempotencyKeyMaterial,
  idsInAnswer,
  openAnswer,
  sealAnswer,
} from '#lib/idempotency/rules/idempotency-sealing';
import { hashSecret } from '#lib/platform/secret-values';
import { headerValue } from '#lib/http/json-response';
import { loggableError, logger } from '#lib/platform/logger';
import type { ApiMiddleware, ApiRequest } from '#lib/http/types';
import { GALLERY_TOKEN_MAX_LENGTH, IDEMPOTENCY_KEY_PATTERN } from '#lib/platform/identifiers';

/** The first answer to a key, replayed: not an error, but it ends the request the same way. */
export class IdempotentReplay extends Error {
  constructor(readonly answer: StoredAnswer) {
    super('idempotent replay');
    this.name = 'IdempotentReplay';
  }
}

interface IdempotencyState {
  material: IdempotencyKeyMaterial;
  requestHash: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** What a sealed answer is bound to: its record and the request it answered. */
const boundTo = (state: IdempotencyState) => `${state.material.scopeHash}\n${state.requestHash}`;
const inUse = () => new ApiError('idempotency_key_in_use', undefined, { headers: { 'Retry-After': '1' } });

/**
 * `Idempotency-Key` on the creating POSTs, as Stripe does it: the first request with a key
 * runs and its answer is kept 24 hours; a repeat with the same body gets that answer and
 * creates nothing; the same key with another body is 422 idempotency_key_reused; a repeat
 * while the first still runs is 409 idempotency_key_in_use. Keys belong to the tenant, the
 * caller (API key, or public) and the route. Without the header nothing changes.
 *
 * The answer is stored sealed under a key derived from the Idempotency-Key
 * (lib/idempotency/rules/idempotency-sealing.ts): the table never holds its tokens or codes in clear, and
 * only a holder of the key can have it replayed.
 *
 * Two middlewares: `idempotencyStart` claims the key once the caller and body are known;
 * `idempotencyFinish` stands before error mapping in the chain, so it sees the final answer.
 */
export function idempotencyStart(routeId: string): ApiMiddleware {
  return {
    before: async (request) => {
      const key = headerValue(request.event.headers, 'idempotency-key');
      if (key === undefined) return;
      if (!IDEMPOTENCY_KEY_PATTERN.test(key)) throw new ApiError('invalid_idempotency_key');
      const { tenant, apiKey } = request.context;
      if (!tenant) throw new Error('idempotencyStart needs tenantResolution before it');
      const material = await deriveIdempotencyKeyMaterial(
        { tenantId: tenant.tenantId, caller: apiKey?.keyId ?? 'public', routeId },
        key,
      );
      // Path parameters, not the raw path: an alias and its primary path are the same request.
      const requestHash = sha256(
        `${stableStringify(request.event.pathParameters ?? {})}\n${stableStringify(request.event.body ?? null)}`,
      );
      const state = { material, requestHash };
      await claimOrReplay(state);
      (request.internal as { idempotency?: IdempotencyState }).idempotency = state;
    },
  };
}

/**
 * Claims the key, or ends the request with the first answer. A completed record whose answer
 * does not open was altered in the table (the right key finds the record, and the key opens
 * what it sealed): its answer is lost as if it had expired, so this request takes the record
 * over and runs, once, instead of failing every retry for a day.
 */
async function claimOrReplay(state: IdempotencyState): Promise<void> {
  let takeOver: string | undefined;
  for (;;) {
    const claim = await claimIdempotencyKey(state.material.scopeHash, state.requestHash, now(), takeOver);
    if (claim.claimed) return;
    if (claim.requestHash !== state.requestHash) throw new ApiError('idempotency_key_reused');
    if (!claim.sealedAnswer) throw inUse();
    const answer = openAnswer(state.material.answerKey, claim.sealedAnswer, boundTo(state));
    if (answer) throw new IdempotentReplay(answer);
    if (takeOver !== undefined || claim.claimId === undefined) throw inUse();
    logger.warn('idempotency record does not open; the request runs anew');
    takeOver = claim.claimId;
  }
}

export function idempotencyFinish(): ApiMiddleware {
  const finish = async (request: ApiRequest) => {
    const state = (request.internal as { idempotency?: IdempotencyState }).idempotency;
    if (!state || !request.response) return;
    const { statusCode, body } = request.response;
    try {
      if (statusCode >= 500) {
        await releaseIdempotencyKey(state.material.scopeHash);
        return;
      }
      const { requestId: _requestId, ok: _ok, ...members } = JSON.parse(String(body)) as Record<string, unknown>;
      const inAnswer = idsInAnswer(members);
      // A person the body does not name (myPhotos answers with a name and URLs only) counts as much.
      const personIds = [...new Set([...inAnswer.personIds, ...(request.context.answerPersonIds ?? [])])];
      const { orderIds } = inAnswer;
      const galleryToken = await galleryOfRequest(request, personIds.length + orderIds.length > 0);
      await completeIdempotencyKey(state.material.scopeHash, {
        sealedAnswer: sealAnswer(state.material.answerKey, { statusCode, members }, boundTo(state)),
        gallery:
          galleryToken === undefined ? undefined : { tenantId: request.context.tenant!.tenantId, token: galleryToken },
        personIds,
        orderIds,
      });
    } catch (error) {
      // The answer stands; only a replay of it is lost, and the key frees itself after its claim times out.
      logger.error('idempotency record not completed', { error: loggableError(error) });
    }
  };
  return { after: finish, onError: finish };
}

/**
 * The gallery a request concerned, under which erasure finds its record: the one the pipeline
 * read, the path's `{token}`, the gallery of a status or retry token (only looked up when the
 * answer carries a person or order), or the body's `token`.
 */
async function galleryOfRequest(request: ApiRequest, carriesIds: boolean): Promise<string | undefined> {
  const body = (
    typeof request.event.body === 'object' && request.event.body !== null ? request.event.body : {}
  ) as Record<string, unknown>;
  const text = (value: unknown, maxLength: number) =>
    typeof value === 'string' && value.trim() !== '' && value.length <= maxLength ? value.trim() : undefined;
  const named =
    request.context.gallery?.gallery.token ?? text(request.context.pathParameters?.token, GALLERY_TOKEN_MAX_LENGTH);
  if (named !== undefined) return named;
  const checkoutToken =
    text(body.statusToken, CHECKOUT_TOKEN_MAX_LENGTH) ?? text(body.retryToken, CHECKOUT_TOKEN_MAX_LENGTH);
  if (carriesIds && checkoutToken !== undefined) {
    const gallery = await galleryOfCheckoutToken(hashSecret(checkoutToken), request.context.tenant!.tenantId);
    if (gallery !== undefined) return gallery;
  }
  return text(body.token, GALLERY_TOKEN_MAX_LENGTH);
}
