import { serverEndpoint } from '#lib/http/server-endpoint';
import { createHrExport } from '#lib/hr-exports/create-hr-export';

/** POST /group-shoot/checkin/{token}/hr-exports, alias /groupshoot/{token}/hr-exports (API key): 202 with the queued export */
export const handler = serverEndpoint('createHrExport', ({ tenant, pathParameters, body }) =>
  createHrExport(tenant, pathParameters.token, body),
);
