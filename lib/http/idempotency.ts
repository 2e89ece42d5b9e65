import { createHash } from 'node:crypto';
import stableStringify from 'fast-json-stable-stringify';
import { now } from '#lib/clock';
import { ApiError } from '#lib/errors';
import {
  type StoredAnswer,
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
} from '#lib/db/idempotency-records';
import { headerValue } from '#lib/http/json-response';
import { logger } from '#lib/logger';
import type { ApiMiddleware, ApiRequest } from '#lib/http/types';

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** The first answer to a key, replayed: not an error, but it ends the request the same way. */
export class IdempotentReplay extends Error {
  constructor(readonly answer: StoredAnswer) {
    super('idempotent replay');
    this.name = 'IdempotentReplay';
  }
}

interface IdempotencyState {
  scopeHash: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * `Idempotency-Key` on the creating POSTs, as Stripe does it: the first request with a key
 * runs and its answer is kept 24 hours; a repeat with the same body gets that answer and
 * creates nothing; the same key with another body is 422 idempotency_key_reused; a repeat
 * while the first still runs is 409 idempotency_key_in_use. Keys belong to the tenant, the
 * caller (API key, or public) and the route. Without the header nothing changes.
 *
 * Two middlewares: `idempotencyStart` claims the key once the caller and body are known;
 * `idempotencyFinish` stands before error mapping in the chain, so it sees the final answer.
 */
export function idempotencyStart(routeId: string): ApiMiddleware {
  return {
    before: async (request) => {
      const key = headerValue(request.event.headers, 'idempotency-key');
      if (key === undefined) return;
      if (!KEY_PATTERN.test(key)) throw new ApiError('invalid_idempotency_key');
      const { tenant, apiKey } = request.context;
      const scopeHash = sha256([tenant?.tenantId, apiKey?.keyId ?? 'public', routeId, key].join('\n'));
      // Path parameters, not the raw path: an alias and its primary path are the same request.
      const requestHash = sha256(`${stableStringify(request.event.pathParameters ?? {})}\n${stableStringify(request.event.body ?? null)}`);
      const claim = await claimIdempotencyKey(scopeHash, requestHash, now());
      if (claim.claimed) {
        (request.internal as { idempotency?: IdempotencyState }).idempotency = { scopeHash };
        return;
      }
      if (claim.requestHash !== requestHash) throw new ApiError('idempotency_key_reused');
      if (!claim.answer) throw new ApiError('idempotency_key_in_use', undefined, { headers: { 'Retry-After': '1' } });
      throw new IdempotentReplay(claim.answer);
    },
  };
}

export function idempotencyFinish(): ApiMiddleware {
  const finish = async (request: ApiRequest) => {
    const state = (request.internal as { idempotency?: IdempotencyState }).idempotency;
    if (!state || !request.response) return;
    const { statusCode, body } = request.response;
    try {
      if (statusCode >= 500) {
        await releaseIdempotencyKey(state.scopeHash);
        return;
      }
      const { requestId: _requestId, ok: _ok, ...members } = JSON.parse(String(body)) as Record<string, unknown>;
      await completeIdempotencyKey(state.scopeHash, { statusCode, members });
    } catch (error) {
      // The answer stands; only a replay of it is lost, and the key frees itself after its claim times out.
      logger.error('idempotency record not completed', error as Error);
    }
  };
  return { after: finish, onError: finish };
}
