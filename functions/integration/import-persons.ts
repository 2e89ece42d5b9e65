import { endpoint } from '#lib/http/endpoint';
import { importPersons } from '#lib/persons/import-persons';

/** POST /group-shoot/checkin/{token}/persons, alias /groupshoot/{token}/persons (API key) */
export const handler = endpoint('importPersons', ({ tenant, pathParameters, body }) =>
  importPersons(tenant, pathParameters.token, body),
);
