import { serverEndpoint } from '#lib/http/server-endpoint';
import { listPersons } from '#lib/persons/list-persons';

/** GET /group-shoot/checkin/{token}/persons, alias /groupshoot/{token}/persons (API key) */
export const handler = serverEndpoint('listPersons', ({ tenant, pathParameters, query, gallery }) =>
  listPersons(tenant, pathParameters.token, query, gallery),
);
