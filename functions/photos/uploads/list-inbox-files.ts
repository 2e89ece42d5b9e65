import { endpoint } from '#lib/http/endpoint';
import { listInboxFiles } from '#lib/photos/uploads/inbox-uploads';

/** GET /group-shoot/checkin/{token}/uploads, alias /groupshoot/{token}/uploads (API key) */
export const handler = endpoint('listInboxFiles', ({ tenant, pathParameters, query }) =>
  listInboxFiles(tenant, pathParameters.token, query),
);
