import { serverEndpoint } from '#lib/http/server-endpoint';
import { loadGroupShootGallery } from '#lib/galleries/group-shoot-gallery';
import { importPersons } from '#lib/persons/import-persons';
import { parseImportRequest } from '#lib/persons/person-schemas';

/**
 * POST /group-shoot/checkin/{token}/persons, alias /groupshoot/{token}/persons (API key). The
 * gallery is read before the body is parsed: its refusals come first in the documented order.
 */
export const handler = serverEndpoint('importPersons', async ({ tenant, pathParameters, body }) => {
  const configuration = await loadGroupShootGallery(tenant.tenantId, pathParameters.token);
  return importPersons(tenant, configuration, parseImportRequest(body));
});
