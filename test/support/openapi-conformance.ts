import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { matchTemplate, pathsOf, routesAtPath } from '#lib/http/routes';
import { buildOpenApiDocument } from '../../scripts/openapi/build-openapi';

const document = buildOpenApiDocument();
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema({ $id: 'doc', components: document.components });
const validators = new Map<string, ValidateFunction>();

/** A validator of a component schema reference such as `#/components/schemas/Person`. */
export function schemaValidator(reference: string): ValidateFunction {
  let validate = validators.get(reference);
  if (!validate) {
    validate = ajv.compile({ $ref: `doc${reference}` });
    validators.set(reference, validate);
  }
  return validate;
}

/**
 * Checks a real answer of the local API against the OpenAPI document: the documented
 * schema of its operation and status, or the error body. Every integration test's calls go
 * through it (test/support/local-api.ts), so the document cannot drift from the functions.
 */
export function conformanceProblems(method: string, path: string, status: number, body: unknown): string[] {
  const route = routesAtPath(path).find(({ route: candidate }) => candidate.method === method)?.route;
  const template = route ? pathsOf(route).find((candidate) => matchTemplate(candidate, path)) : undefined;
  const operation = template ? document.paths[template]?.[method.toLowerCase()] : undefined;
  const response = operation?.responses?.[String(status)];
  if (operation && !response) return [`${method} ${template} answered ${status}, which the document does not list`];
  if (status === 204) return [];
  // A page (a link route's): the document says only that it is HTML; what it shows, its tests check.
  if (typeof body === 'string' && response?.content?.['text/html']) return [];
  const reference =
    response?.content?.['application/json']?.schema?.$ref ??
    (status >= 400 ? '#/components/schemas/ErrorBody' : undefined);
  if (!reference) return [];
  const validate = schemaValidator(reference);
  return validate(body)
    ? []
    : (validate.errors ?? []).map((error) => `${method} ${path} ${status}: ${error.instancePath} ${error.message}`);
}
