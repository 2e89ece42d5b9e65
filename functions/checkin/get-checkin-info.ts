import { getCheckinInfo } from '#lib/checkin/checkin-info';
import { publicEndpoint } from '#lib/http/public-endpoint';

/** GET /group-shoot/checkin/{token} (public) */
export const handler = publicEndpoint('getCheckinInfo', ({ tenant, pathParameters, gallery }) =>
  getCheckinInfo(tenant, pathParameters.token, gallery),
);
