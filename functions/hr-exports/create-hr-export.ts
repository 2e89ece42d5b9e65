import { endpoint } from '#lib/http/endpoint';
import { createHrExport } from '#lib/hr-exports/create-hr-export';

/** POST /group-shoot/checkin/{token}/hr-exports, alias /groupshoot/{token}/hr-exports (API key): 202 with the queued export */
export const handler = endpoint('createHrExport', ({ tenant, pathParameters, body }) =>
  createHrExport(tenant, pathParameters.token, body),
);
