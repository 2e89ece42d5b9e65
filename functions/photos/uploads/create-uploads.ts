import { endpoint } from '#lib/http/endpoint';
import { createInboxUploads } from '#lib/photos/uploads/inbox-uploads';

/** POST /group-shoot/checkin/{token}/uploads, alias /groupshoot/{token}/uploads (API key) */
export const handler = endpoint('createUploads', ({ tenant, pathParameters, body }) =>
  createInboxUploads(tenant, pathParameters.token, body),
);
