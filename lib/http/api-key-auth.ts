import { ApiError } from '#lib/http/errors';
import { type ApiKeyRecord, findApiKeyBySecret } from '#lib/tenants/store/api-keys';
import { hasApiKeyShape } from '#lib/tenants/rules/api-key-secret';
import { headerValue } from '#lib/http/json-response';
import { logger } from '#lib/platform/logger';
import type { ApiMiddleware } from '#lib/http/types';

/**
 * The key presented by the caller: `Authorization: Bearer <key>` first, else `X-Api-Key`.
 * An Authorization header of another scheme does not count as a key.
 */
export function presentedApiKey(headers: Record<string, string | undefined> | undefined): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headerValue(headers, 'authorization') ?? '')?.[1];
  return bearer || headerValue(headers, 'x-api-key')?.trim() || undefined;
}

const PREFETCH = 'apiKeyLookup';
type Internal = { [PREFETCH]?: Promise<ApiKeyRecord | undefined> };

/**
 * Starts looking up the presented key before the tenant is resolved: the two lookups are
 * independent, so a server-side request waits for one round trip instead of two. It checks
 * nothing; apiKeyAuth still decides, after the tenant, in the documented order.
 */
export function prefetchApiKey(): ApiMiddleware {
  return {
    before: async (request) => {
      const secret = presentedApiKey(request.event.headers);
      if (!secret || !hasApiKeyShape(secret)) return;
      const lookup = findApiKeyBySecret(secret);
      lookup.catch(() => undefined); // awaited, and so reported, by apiKeyAuth; never unhandled
      (request.internal as Internal)[PREFETCH] = lookup;
    },
  };
}

/**
 * Server-side routes: the key must exist, be active and belong to the resolved tenant. Each
 * failure answers the same invalid_api_key, so a caller learns nothing about other tenants' keys.
 */
export function apiKeyAuth(): ApiMiddleware {
  return {
    before: async (request) => {
      const secret = presentedApiKey(request.event.headers);
      if (!secret) throw new ApiError('api_key_required');
      const prefetched = (request.internal as Internal)[PREFETCH];
      const record = hasApiKeyShape(secret) ? await (prefetched ?? findApiKeyBySecret(secret)) : undefined;
      if (!record || record.status !== 'active' || record.tenantId !== request.context.tenant?.tenantId) {
        throw new ApiError('invalid_api_key');
      }
      request.context.apiKey = record;
      logger.appendKeys({ apiKeyId: record.keyId });
    },
  };
}
