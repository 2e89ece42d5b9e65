import { ApiError } from '#lib/http/errors';
import { getTenantBySlug } from '#lib/tenants/store/tenants';
import { normalizeTenantSlug } from '#lib/tenants/rules/tenant-slug';
import { headerValue } from '#lib/http/json-response';
import { logger } from '#lib/platform/logger';
import type { ApiMiddleware } from '#lib/http/types';

/** Resolves `X-Tenant-Slug`: missing_tenant_slug when absent, invalid_tenant when unknown. */
export function tenantResolution(): ApiMiddleware {
  return {
    before: async (request) => {
      const presented = headerValue(request.event.headers, 'x-tenant-slug')?.trim();
      if (!presented) throw new ApiError('missing_tenant_slug');
      const slug = normalizeTenantSlug(presented);
      const tenant = slug ? await getTenantBySlug(slug) : undefined;
      if (!tenant) throw new ApiError('invalid_tenant');
      request.context.tenant = tenant;
      logger.appendKeys({ tenant: tenant.slug });
    },
  };
}
