import { ApiError } from '#lib/http/errors';
import { getRecentTenantBySlug, getTenantBySlug } from '#lib/tenants/store/tenants';
import { normalizeTenantSlug } from '#lib/tenants/rules/tenant-slug';
import { headerValue } from '#lib/http/json-response';
import { logger } from '#lib/platform/logger';
import type { ApiMiddleware, ApiRequest } from '#lib/http/types';

/** The `X-Tenant-Slug` a request presents, trimmed; undefined when absent or blank. */
export function presentedTenantSlug(request: ApiRequest): string | undefined {
  return headerValue(request.event.headers, 'x-tenant-slug')?.trim() || undefined;
}

/**
 * Resolves `X-Tenant-Slug`: missing_tenant_slug when absent, invalid_tenant when unknown.
 * `recent`: a tenant this process read less than TENANT_CACHE_MS ago will do (GET routes, which
 * change nothing, and the public routes, which no plan governs: a profile change reaches them
 * within that time); otherwise it is read (server-side writes, whose plan must be current).
 */
export function tenantResolution({ recent = false }: { recent?: boolean } = {}): ApiMiddleware {
  const lookUp = recent ? getRecentTenantBySlug : getTenantBySlug;
  return {
    before: async (request) => {
      const presented = presentedTenantSlug(request);
      if (!presented) throw new ApiError('missing_tenant_slug');
      const slug = normalizeTenantSlug(presented);
      const tenant = slug ? await lookUp(slug) : undefined;
      if (!tenant) throw new ApiError('invalid_tenant');
      request.context.tenant = tenant;
      logger.appendKeys({ tenant: tenant.slug });
    },
  };
}
