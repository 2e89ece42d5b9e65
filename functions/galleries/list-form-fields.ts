import { serverEndpoint } from '#lib/http/server-endpoint';
import { listFormFields } from '#lib/galleries/list-form-fields';

/** GET /group-shoot/checkin/{token}/form-fields, alias /groupshoot/{token}/form-fields (API key) */
export const handler = serverEndpoint('listFormFields', ({ tenant, pathParameters, gallery }) =>
  listFormFields(tenant, pathParameters.token, gallery),
);
