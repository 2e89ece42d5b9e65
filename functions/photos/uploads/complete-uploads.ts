import { serverEndpoint } from '#lib/http/server-endpoint';
import { completeInboxUploads } from '#lib/photos/uploads/inbox-uploads';

/** POST /group-shoot/checkin/{token}/uploads/complete, alias /groupshoot/{token}/uploads/complete (API key) */
export const handler = serverEndpoint('completeUploads', ({ tenant, pathParameters, body }) =>
  completeInboxUploads(tenant, pathParameters.token, body),
);
