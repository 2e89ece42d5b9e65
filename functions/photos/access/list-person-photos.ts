import { serverEndpoint } from '#lib/http/server-endpoint';
import { listPersonPhotos } from '#lib/photos/access/person-photos';

/** GET /group-shoot/checkin/{token}/persons/{personId}/photos, alias /groupshoot/{token}/persons/{personId}/photos (API key) */
export const handler = serverEndpoint('listPersonPhotos', ({ tenant, pathParameters, gallery }) =>
  listPersonPhotos(tenant, pathParameters.token, pathParameters.personId, gallery),
);
