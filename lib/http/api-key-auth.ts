import { ApiError } from '#lib/http/errors';
import { admitApiKeyRequest } from '#lib/tenants/store/api-keys';
import { integrationEligibility } from '#lib/tenants/rules/plans';
import { API_KEY_RATE_LIMIT, type RateLimitPolicy, type RateLimitVerdict } from '#lib/rate-limits/rules/rate-limit';
import { now } from '#lib/platform/clock';
import { hasApiKeyShape } from '#lib/tenants/rules/api-key-secret';
import { headerValue } from '#lib/http/json-response';
import { logger } from '#lib/platform/logger';
import type { ApiMiddleware, ApiRequest } from '#lib/http/types';

/**
 * The key presented by the caller: `Authorization: Bearer <key>` first, else `X-Api-Key`.
 * An Authorization header of another scheme does not count as a key.
 */
export function presentedApiKey(headers: Record<string, string | undefined> | undefined): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headerValue(headers, 'authorization') ?? '')?.[1];
  return bearer || headerValue(headers, 'x-api-key')?.trim() || undefined;
}

const ADMISSION = 'apiKeyAdmission';
type Internal = { [ADMISSION]?: { verdict: RateLimitVerdict; policy: RateLimitPolicy } };

/** The rate limit's verdict that apiKeyAuth's write took, for rateLimit to answer in its turn. */
export function takenVerdict(request: ApiRequest): { verdict: RateLimitVerdict; policy: RateLimitPolicy } | undefined {
  return (request.internal as Internal)[ADMISSION];
}

/**
 * The message of api_key_required when an Authorization header is there but carries no key the
 * API takes: the contract's code (no API key provided), with the reason in words, so a caller
 * who sent a good key the wrong way is not sent to check the key itself.
 */
function unreadAuthorizationMessage(authorization: string): string {
  const [first = '', ...rest] = authorization.split(/\s+/);
  if (rest.length === 0 && hasApiKeyShape(first))
    return 'The Authorization header holds a key without the Bearer scheme: send `Authorization: Bearer <API key>` (or the key alone in X-Api-Key).';
  return 'The Authorization header is not `Bearer <API key>`, so no API key was read: send `Authorization: Bearer <API key>` (or the key alone in X-Api-Key).';
}

/**
 * Server-side routes: the key must exist, be active and belong to the resolved tenant. Each
 * failure answers the same invalid_api_key, so a caller learns nothing about other tenants' keys.
 * Without a key, an Authorization header that is there but not `Bearer <key>` (a bare key,
 * another scheme) is the contract's api_key_required, with a message that says what was wrong
 * with the header rather than the one for a request that sent nothing.
 *
 * One round trip: where the tenant's plan admits the integration API, the check is the
 * conditional write that also takes the request from the key's rate-limit counter under
 * `policy` (admitApiKeyRequest); the verdict waits in the request for rateLimit, so the errors
 * keep their order (key, plan, rate limit). Where the plan refuses, the key is only read.
 */
export function apiKeyAuth(policy: RateLimitPolicy = API_KEY_RATE_LIMIT): ApiMiddleware {
  return {
    before: async (request) => {
      const secret = presentedApiKey(request.event.headers);
      const authorization = headerValue(request.event.headers, 'authorization')?.trim();
      if (!secret && authorization) throw new ApiError('api_key_required', unreadAuthorizationMessage(authorization));
      if (!secret) throw new ApiError('api_key_required');
      const tenant = request.context.tenant;
      if (!tenant || !hasApiKeyShape(secret)) throw new ApiError('invalid_api_key');
      const counted = integrationEligibility(tenant.plan?.tier) === 'eligible' ? policy : undefined;
      const { record, verdict } = await admitApiKeyRequest(secret, tenant.tenantId, counted, now());
      if (!record) throw new ApiError('invalid_api_key');
      request.context.apiKey = record;
      if (verdict) (request.internal as Internal)[ADMISSION] = { verdict, policy };
      logger.appendKeys({ apiKeyId: record.keyId });
    },
  };
}
