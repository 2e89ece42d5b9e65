import { serverEndpoint } from '#lib/http/server-endpoint';
import { readHrExport } from '#lib/hr-exports/get-hr-export';

/** GET /group-shoot/checkin/{token}/hr-exports/{exportId}, alias /groupshoot/{token}/hr-exports/{exportId} (API key) */
export const handler = serverEndpoint('getHrExport', ({ tenant, pathParameters }) =>
  readHrExport(tenant, pathParameters.token, pathParameters.exportId),
);
