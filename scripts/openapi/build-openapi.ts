import { toJsonSchemaDefs } from '@valibot/to-json-schema';
import { API_SCHEMAS, ROUTE_SCHEMAS } from '#lib/http/route-schemas';
import { EVENT_SCHEMAS } from '#lib/events/rules/event-schemas';
import { DEFAULT_PUBLIC_LIMITS, windowInWords } from '#lib/galleries/rules/public-limits';
import { ERROR_CATALOG } from '#lib/http/errors';
import { type Route, pathsOf, routes } from '#lib/http/routes';
import { PERSONS_PAGE } from '#lib/platform/page-cursor';
import { INBOX_PAGE } from '#lib/photos/uploads/rules/inbox';
import {
  GALLERY_TOKEN_SOURCE,
  IDEMPOTENCY_KEY_PATTERN,
  PERSON_ID_SOURCE,
  TENANT_ID_SOURCE,
} from '#lib/platform/identifiers';
import { HR_EXPORT_ID } from '#lib/hr-exports/rules/hr-export-model';
import { SLUG_PATTERN } from '#lib/tenants/rules/tenant-slug';
import { PERSON_TEXT_LIMITS } from '#lib/persons/rules/person-limits';
import { enforcedAction, withoutMarkers } from './enforced-checks';
import { EXAMPLES } from './examples';
import { WEBHOOK_PARAMETERS, webhookOperations } from './webhooks';

type Json = Record<string, any>;

const json = (schema: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } });

/** Error statuses each kind of route can answer, beyond the ones its method adds. */
const ERROR_STATUSES: Record<Route['access'], number[]> = {
  public: [400, 403, 404, 405, 409, 429, 500, 502, 503],
  server: [400, 401, 403, 404, 405, 409, 429, 500, 503],
  webhook: [400, 403, 405, 500, 503],
  link: [400, 403, 404, 405, 500, 503],
};

/**
 * API Gateway's own answer to a body over its 10 MB payload limit: sent before any function
 * runs, so it is not the error shape (no ok, no error code, no requestId, no X-Request-Id).
 */
const GATEWAY_ERROR_SCHEMAS: Json = {
  GatewayError: {
    type: 'object',
    description:
      'Sent by API Gateway itself, before any function runs, for request bodies over 10 MB: no error code, no requestId, no X-Request-Id.',
    properties: { message: { type: 'string', examples: ['Request Entity Too Large'] } },
    required: ['message'],
    additionalProperties: false,
  },
  PayloadTooLargeBody: {
    description:
      "The error shape (payload_too_large, selfie_too_large) for bodies the function refuses; API Gateway's GatewayError for bodies over 10 MB.",
    oneOf: [{ $ref: '#/components/schemas/ErrorBody' }, { $ref: '#/components/schemas/GatewayError' }],
  },
};

function errorResponse(status: number): Json {
  const codes = Object.entries(ERROR_CATALOG)
    .filter(([, entry]) => entry.status === status)
    .map(([code]) => code);
  if (status === 413) {
    return {
      description: `Error: ${codes.join(', ')}; or, for a body over 10 MB, API Gateway's own GatewayError (without X-Request-Id)`,
      headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/PayloadTooLargeBody' },
          examples: {
            ...exampleFor(codes[0]!),
            gateway_payload_limit: { value: { message: 'Request Entity Too Large' } },
          },
        },
      },
      'x-error-codes': codes,
    };
  }
  return {
    description: `Error: ${codes.join(', ')}`,
    headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
    content: {
      'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' }, examples: exampleFor(codes[0]!) },
    },
    'x-error-codes': codes,
  };
}

/** The public routes' limits and their defaults, from the one source the service reads. */
function publicLimitsDescription(): string {
  const {
    reads,
    checkins,
    photoLookups,
    photoLookupFailures,
    photoLookupFailuresPerSite,
    photoLookupFailuresPerCode,
    checkinsPerEmail,
    retriesPerOrder,
    pendingPaymentsShare,
  } = DEFAULT_PUBLIC_LIMITS;
  const rate = (policy: { limit: number; windowMs: number }) => `${policy.limit} per ${windowInWords(policy.windowMs)}`;
  return [
    'No API key; any origin may call them (CORS).',
    `Each client address (IPv6 by /64) has per gallery a read budget (check-in info, checkinStatus; default ${rate(reads)}) and a check-in budget (submitCheckin, retryCheckout; default ${rate(checkins)}): over it, 429 rate_limit_exceeded with Retry-After and the X-RateLimit-* headers.`,
    `Photo lookups (myPhotos, sendPhotoLink, photosByLink, pickPhoto, withdrawFaceConsent) have a budget of their own per client and gallery (default ${rate(photoLookups)}; over it, 429 rate_limit_exceeded). A myPhotos body that parsed (and a pickPhoto or withdrawFaceConsent by code) draws on three budgets of wrong pairs: the client's network (IPv4 /24, IPv6 /48; default ${rate(photoLookupFailuresPerSite)}), the access code (default ${rate(photoLookupFailuresPerCode)}) and the gallery, all clients together (default ${rate(photoLookupFailures)}); a right pair gets its share back. Within them every wrong pair of code and email or employee ID is 404 photos_not_found; past any of them the lookup is never refused but answered 200 { photoLinkRequested: true }, the answer of sendPhotoLink, and a right pair's person gets a photo link by email.`,
    `Per gallery and email address at most ${checkinsPerEmail} free check-ins (409 email_checkin_limit) and one reservation waiting for payment (a new one replaces it); per reservation ${retriesPerOrder} retries (409 retry_limit_reached); per day with a capacity at most ${Math.round(pendingPaymentsShare * 100)} % of it waiting for payment (409 pending_payments_limit).`,
    'A gallery changes these with the admin CLI (gallery limits); docs/api-reference.md explains the defaults.',
  ].join(' ');
}

function exampleFor(code: string): Json {
  const entry = ERROR_CATALOG[code as keyof typeof ERROR_CATALOG];
  return { [code]: { value: { ok: false, error: code, message: entry.message, requestId: 'a1B2c3D4e5F6g7H8' } } };
}

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
};

/**
 * The shapes of the path parameters the service looks up; a value of another shape names
 * nothing (404, as an unknown one).
 */
const PATH_PARAMETER_SCHEMAS: Record<string, Json> = {
  token: { type: 'string', pattern: `^${GALLERY_TOKEN_SOURCE}$` },
  personId: { type: 'string', pattern: `^${PERSON_ID_SOURCE}$` },
  exportId: { type: 'string', pattern: HR_EXPORT_ID.source },
  link: {
    type: 'string',
    pattern: `^${TENANT_ID_SOURCE}\\.${GALLERY_TOKEN_SOURCE}\\.${PERSON_ID_SOURCE}\\.[0-9]{1,12}\\.[A-Za-z0-9_-]{43}$`,
    description:
      "An email's unsubscribe link token: tenant, gallery, person, expiry and a MAC under the deployment's link key. Any other value is 403 unsubscribe_link_invalid.",
  },
};

/** A page cursor: base64url, as nextCursor gives it. */
const cursorParameter = (listing: string): Json => ({
  name: 'cursor',
  in: 'query',
  schema: { type: 'string', minLength: 1, pattern: '^[A-Za-z0-9_-]+$' },
  description: `nextCursor of the previous page of ${listing}; any other value is 400 invalid_parameter.`,
});

function operation(route: Route, path: string, isAlias: boolean): Json {
  const schemas = ROUTE_SCHEMAS[route.id] ?? {};
  const parameters: Json[] = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => {
    const schema = PATH_PARAMETER_SCHEMAS[name!];
    if (!schema) throw new Error(`No schema for the path parameter ${name}: add it to PATH_PARAMETER_SCHEMAS`);
    return { name, in: 'path', required: true, schema };
  });
  if (route.access !== 'webhook' && route.access !== 'link' && route.method !== 'OPTIONS')
    parameters.push({ $ref: '#/components/parameters/TenantSlug' });
  if (route.method === 'POST' && route.access !== 'webhook' && route.access !== 'link')
    parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  if (route.access === 'webhook')
    parameters.push({ name: 'Stripe-Signature', in: 'header', required: true, schema: { type: 'string' } });
  if (route.id === 'listPersons') {
    parameters.push(
      {
        name: 'employeeId',
        in: 'query',
        schema: { type: 'string', minLength: 1, maxLength: PERSON_TEXT_LIMITS.employeeId, pattern: '\\S' },
        description: 'Exact employee ID (surrounding white space is ignored).',
      },
      {
        name: 'limit',
        in: 'query',
        schema: { type: 'integer', minimum: 1, maximum: PERSONS_PAGE.maxLimit, default: PERSONS_PAGE.defaultLimit },
      },
      cursorParameter('persons'),
    );
  }
  if (route.id === 'listInboxFiles') {
    parameters.push(
      {
        name: 'limit',
        in: 'query',
        schema: { type: 'integer', minimum: 1, maximum: INBOX_PAGE.maxLimit, default: INBOX_PAGE.defaultLimit },
      },
      cursorParameter('the inbox'),
    );
  }
  const rateLimited = route.access === 'server' || (route.access === 'public' && route.method !== 'OPTIONS');
  const headers = {
    'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
    ...(rateLimited ? RATE_LIMIT_HEADERS : {}),
  };
  const success =
    route.method === 'OPTIONS'
      ? { '204': { description: 'CORS preflight answer', headers } }
      : route.access === 'link'
        ? linkSuccess(route, headers, schemas.response)
        : {
            [String(route.successStatus ?? 200)]: {
              description: route.summary,
              headers,
              content: schemas.response
                ? { 'application/json': { ...json(schemas.response)['application/json'], ...examplesOf(route.id) } }
                : undefined,
            },
          };
  const statuses =
    route.method === 'OPTIONS'
      ? [405]
      : [...ERROR_STATUSES[route.access], ...(route.method === 'POST' ? [413, 422] : [])];
  return {
    operationId: isAlias ? `${route.id}Alias` : route.id,
    summary: isAlias ? `${route.summary} (alias)` : route.summary,
    tags: [
      route.access === 'server'
        ? 'Server-side (API key)'
        : route.access === 'public'
          ? 'Public check-in'
          : route.access === 'link'
            ? 'Unsubscribe'
            : 'Webhooks',
    ],
    security: route.access === 'server' ? [{ bearerAuth: [] }, { apiKeyHeader: [] }] : [],
    parameters,
    ...(schemas.request ? { requestBody: { required: true, content: json(schemas.request) } } : {}),
    ...(route.access === 'link' && route.method === 'POST' ? { requestBody: ONE_CLICK_BODY } : {}),
    responses: {
      ...success,
      ...Object.fromEntries([...new Set(statuses)].sort().map((status) => [String(status), errorResponse(status)])),
    },
  };
}

/** The body of RFC 8058's one-click POST, as mail providers and the link's own page send it. */
const ONE_CLICK_BODY: Json = {
  required: true,
  content: {
    'application/x-www-form-urlencoded': {
      schema: {
        type: 'object',
        properties: { 'List-Unsubscribe': { const: 'One-Click' } },
        required: ['List-Unsubscribe'],
      },
    },
    'multipart/form-data': {
      schema: {
        type: 'object',
        properties: { 'List-Unsubscribe': { const: 'One-Click' } },
        required: ['List-Unsubscribe'],
      },
    },
  },
};

/**
 * A link route's 200: the page (HTML) for a GET, and for a POST the JSON a mail provider gets or,
 * where the request's Accept asks for text/html (the page's own button), the page again.
 */
function linkSuccess(route: Route, headers: Json, response: string | undefined): Json {
  const page = { 'text/html': { schema: { type: 'string' } } };
  return {
    '200': {
      description: route.summary,
      headers,
      content: route.method === 'GET' || !response ? page : { ...json(response), ...page },
    },
  };
}

function examplesOf(routeId: string): Json {
  const example = EXAMPLES[routeId];
  return example ? { examples: { example: { value: example } } } : {};
}

/**
 * An import row is parsed into its verdict, never refused (ImportRowSchema falls back to a skip):
 * no member of a row is required for the request to succeed, and a row without a usable name is
 * skipped with a 200 (the spec's per-row rule). The row's schema says which rows are imported.
 */
function importRowsAreVerdicts(schemas: Json): void {
  const row = schemas.ImportRequest?.properties?.persons?.items;
  if (!row?.properties?.name) throw new Error('ImportRequest has no persons[].name to document');
  delete row.required;
}

/**
 * The OpenAPI 3.1 document of the API, from the route module, the valibot schemas and the error
 * catalogue; its `webhooks` are the events the service sends to subscriptions.
 */
export function buildOpenApiDocument(): Json {
  const paths: Json = {};
  for (const route of routes as readonly Route[]) {
    for (const path of pathsOf(route)) {
      paths[path] ??= {};
      paths[path][route.method.toLowerCase()] = operation(route, path, path === route.alias);
    }
  }
  const converted = withoutMarkers(
    toJsonSchemaDefs(
      { ...API_SCHEMAS, ...EVENT_SCHEMAS },
      { target: 'draft-2020-12', errorMode: 'ignore', overrideAction: enforcedAction },
    ),
  );
  const schemas = JSON.parse(JSON.stringify(converted).replace(/#\/\$defs\//g, '#/components/schemas/'));
  for (const schema of Object.values<Json>(schemas)) delete schema.$schema;
  importRowsAreVerdicts(schemas);
  Object.assign(schemas, GATEWAY_ERROR_SCHEMAS);
  return {
    openapi: '3.1.0',
    info: {
      title: 'groupshoot-api',
      version: '1.0.0',
      description:
        'The public REST API of a group-shoot gallery service. Every request needs X-Tenant-Slug; server-side endpoints an API key. Every answer carries ok and requestId (also in X-Request-Id).',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      { url: 'http://localhost:3000/v1', description: 'npm start' },
      { url: 'https://{host}/v1', variables: { host: { default: 'api.example.com' } } },
    ],
    tags: [
      { name: 'Public check-in', description: publicLimitsDescription() },
      { name: 'Server-side (API key)', description: 'Creator plan or higher; 60 requests per minute per key.' },
      { name: 'Webhooks', description: 'Called by Stripe; authenticated by the signature.' },
      {
        name: 'Unsubscribe',
        description:
          'The one-click unsubscribe link of every notification email (RFC 8058): no X-Tenant-Slug, no key; the signed link in the path names the person, and withdraws their notificationConsent only.',
      },
      {
        name: 'Events',
        description:
          "Sent by the service to the endpoints of a tenant's webhook subscriptions (npm run admin -- webhook add), signed with the subscription's secret. docs/events.md describes delivery, retries and verification.",
      },
    ],
    paths,
    webhooks: webhookOperations(),
    components: {
      schemas,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer gsk_…' },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
      },
      parameters: {
        TenantSlug: {
          name: 'X-Tenant-Slug',
          in: 'header',
          required: true,
          // Compared case-insensitively: either case of the slug's letters.
          schema: {
            type: 'string',
            minLength: 1,
            maxLength: 63,
            pattern: SLUG_PATTERN.source.replaceAll('a-z', 'A-Za-z'),
          },
          description:
            "The tenant's slug: letters, digits and inner hyphens (case is ignored). A slug of another shape, or no tenant's, is 400 invalid_tenant.",
        },
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: IDEMPOTENCY_KEY_PATTERN.source },
          description: 'A repeat with the same body within 24 hours gets the first answer and creates nothing.',
        },
        ...WEBHOOK_PARAMETERS,
      },
      headers: {
        'X-Request-Id': { schema: { type: 'string' }, description: 'The same as the body member requestId.' },
        'X-RateLimit-Limit': {
          schema: { type: 'integer' },
          description:
            'The budget: 60 per minute for an API key; for a public client, the gallery budget (docs/api-reference.md, public rate limits).',
        },
        'X-RateLimit-Remaining': { schema: { type: 'integer' }, description: 'Requests that would be admitted now.' },
        'X-RateLimit-Reset': {
          schema: { type: 'integer' },
          description: 'Unix second: a full bucket again, or on 429 the first admitted retry.',
        },
      },
    },
  };
}
