import { type GalleryPointer, listGalleryPointers } from '#lib/galleries/store/gallery-pointers';
import { isGalleryTokenShaped } from '#lib/platform/identifiers';
import { hasRecentTenant } from '#lib/tenants/store/tenants';
import { normalizeTenantSlug } from '#lib/tenants/rules/tenant-slug';
import { presentedTenantSlug } from '#lib/http/tenant-resolution';
import type { ApiMiddleware } from '#lib/http/types';

/**
 * Public GET routes that name a gallery in their path: where this process has not read the
 * slug's tenant lately, starts reading the gallery's pointers (the token's tenants and their own
 * limits) before the tenant is resolved, so that the tenant's Query and this one are one round
 * trip. publicRateLimit takes the pointer of the resolved tenant, if any, and then reads the
 * gallery beside the counter's write. It decides nothing and raises nothing: every check keeps
 * its order, and a failed read only sends publicRateLimit down the path without a pointer.
 */
export function prefetchGalleryPointer(): ApiMiddleware {
  return {
    before: async (request) => {
      const token = request.context.pathParameters.token;
      const presented = presentedTenantSlug(request);
      const slug = presented ? normalizeTenantSlug(presented) : undefined;
      if (!token || !slug || !isGalleryTokenShaped(token) || hasRecentTenant(slug)) return;
      const lookup: Promise<GalleryPointer[] | undefined> = listGalleryPointers(token).catch(() => undefined);
      request.context.galleryPointerLookup = lookup;
    },
  };
}
