import { endpoint } from '#lib/http/endpoint';
import { listPersons } from '#lib/persons/list-persons';

/** GET /group-shoot/checkin/{token}/persons, alias /groupshoot/{token}/persons (API key) */
export const handler = endpoint('listPersons', ({ tenant, pathParameters, query, gallery }) =>
  listPersons(tenant, pathParameters.token, query, gallery),
);
