import { endpoint } from '#lib/http/endpoint';
import { completeInboxUploads } from '#lib/photos/uploads/inbox-uploads';

/** POST /group-shoot/checkin/{token}/uploads/complete, alias /groupshoot/{token}/uploads/complete (API key) */
export const handler = endpoint('completeUploads', ({ tenant, pathParameters, body }) =>
  completeInboxUploads(tenant, pathParameters.token, body),
);
