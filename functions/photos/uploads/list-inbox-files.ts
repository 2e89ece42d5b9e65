import { serverEndpoint } from '#lib/http/server-endpoint';
import { listInboxFiles } from '#lib/photos/uploads/inbox-uploads';

/** GET /group-shoot/checkin/{token}/uploads, alias /groupshoot/{token}/uploads (API key) */
export const handler = serverEndpoint('listInboxFiles', ({ tenant, pathParameters, query }) =>
  listInboxFiles(tenant, pathParameters.token, query),
);
