import { getCheckinInfo } from '#lib/checkin/checkin-info';
import { endpoint } from '#lib/http/endpoint';

/** GET /group-shoot/checkin/{token} (public) */
export const handler = endpoint('getCheckinInfo', ({ tenant, pathParameters, gallery }) =>
  getCheckinInfo(tenant, pathParameters.token, gallery),
);
