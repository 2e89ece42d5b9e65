import { endpoint } from '#lib/http/endpoint';
import { getGalleryStats } from '#lib/galleries/get-gallery-stats';

/** GET /group-shoot/checkin/{token}/stats, alias /groupshoot/{token}/stats (API key) */
export const handler = endpoint('getGalleryStats', ({ tenant, pathParameters, gallery }) =>
  getGalleryStats(tenant, pathParameters.token, gallery),
);
