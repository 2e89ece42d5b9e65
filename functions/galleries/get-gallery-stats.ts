import { serverEndpoint } from '#lib/http/server-endpoint';
import { getGalleryStats } from '#lib/galleries/get-gallery-stats';

/** GET /group-shoot/checkin/{token}/stats, alias /groupshoot/{token}/stats (API key) */
export const handler = serverEndpoint('getGalleryStats', ({ tenant, pathParameters, gallery }) =>
  getGalleryStats(tenant, pathParameters.token, gallery),
);
