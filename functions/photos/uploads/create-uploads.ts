import { serverEndpoint } from '#lib/http/server-endpoint';
import { createInboxUploads } from '#lib/photos/uploads/inbox-uploads';

/** POST /group-shoot/checkin/{token}/uploads, alias /groupshoot/{token}/uploads (API key) */
export const handler = serverEndpoint('createUploads', ({ tenant, pathParameters, body }) =>
  createInboxUploads(tenant, pathParameters.token, body),
);
