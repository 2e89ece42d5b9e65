import { findGalleryConfiguration } from '#lib/galleries/group-shoot-gallery';
import type { ApiMiddleware } from '#lib/http/types';

/**
 * Server-side GET routes that answer from the gallery's configuration: starts reading the
 * gallery the path names as soon as the tenant is known, so that the read and the key's check
 * (apiKeyAuth's one write) are one round trip together, not two after each other. It decides
 * nothing: the body gets the configuration (EndpointInput.gallery) only once every check has
 * passed, and a request the checks refuse has only read. A failed read is reported by the body
 * that awaits it, never here.
 */
export function prefetchGallery(): ApiMiddleware {
  return {
    before: async (request) => {
      const tenantId = request.context.tenant?.tenantId;
      const token = request.context.pathParameters.token;
      if (!tenantId || !token) return;
      const lookup = findGalleryConfiguration(tenantId, token);
      lookup.catch(() => undefined); // awaited, and so reported, by the endpoint's body; never unhandled
      request.context.galleryLookup = lookup;
    },
  };
}
