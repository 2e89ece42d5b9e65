import { serverEndpoint } from '#lib/http/server-endpoint';
import { listShootingDays } from '#lib/galleries/list-shooting-days';

/** GET /group-shoot/checkin/{token}/days, alias /groupshoot/{token}/days (API key) */
export const handler = serverEndpoint('listShootingDays', ({ tenant, pathParameters, gallery }) =>
  listShootingDays(tenant, pathParameters.token, gallery),
);
