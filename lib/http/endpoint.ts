import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { ApiError } from '#lib/http/errors';
import {
  CORS_PREFLIGHT_HANDLER,
  type Route,
  type RouteAccess,
  type RouteId,
  findRoute,
  routes,
} from '#lib/http/routes';
import { preflightHeaders } from '#lib/http/cors';
import { errorResponses } from '#lib/http/error-responses';
import { idempotencyFinish, idempotencyStart } from '#lib/http/idempotency';
import { jsonBody } from '#lib/http/json-body';
import { jsonResponse } from '#lib/http/json-response';
import { methodCheck } from '#lib/http/method-check';
import { originVerify } from '#lib/http/origin-verify';
import { requestId } from '#lib/http/request-id';
import { requestLogging } from '#lib/http/request-logging';
import { tenantResolution } from '#lib/http/tenant-resolution';
import type { ApiContext, ApiEvent, ApiMiddleware, ApiResponse, EndpointInput, EndpointResult } from '#lib/http/types';

export type EndpointBody = (input: EndpointInput) => Promise<EndpointResult>;

/**
 * The stages of one kind of access, which the endpoint preset puts in their places: public
 * routes' (public-endpoint.ts) and server-side routes' (server-endpoint.ts). Each lives in a
 * module of its own so that a function bundles only its own kind's checks (a server-side
 * function has no client addresses to parse; docs/benchmarks/cold-starts.md).
 */
export interface AccessStages {
  access: RouteAccess;
  /** Right after logging: CORS. */
  outermost: () => ApiMiddleware[];
  /** After the method check, started before the tenant's read. */
  beforeTenant: (route: Route) => ApiMiddleware[];
  /** After the tenant: the gallery's read where the route takes it, the API key, plan and rate limit. */
  afterTenant: (route: Route) => ApiMiddleware[];
  /** After the JSON body: the per-client rate limit. */
  afterBody: () => ApiMiddleware[];
}

/**
 * The one middleware preset, in its fixed order: request ID, logging, (CORS for public
 * routes), error mapping, origin check (behind the optional API front), method check, (for public GETs of a gallery the start of its pointer's
 * read), tenant, then for server-side routes API key, plan and
 * rate limit, then for POST routes the JSON body, for public routes the per-client rate limit
 * (lib/http/public-rate-limit.ts), then for POST routes the Idempotency-Key. The body returns the
 * members of a 200 response (or of the route's successStatus). `stages`: those of the route's access.
 *
 * Round trips (docs/data-model.md#round-trips-per-request): GET and public routes take a tenant
 * read in the last TENANT_CACHE_MS (tenantResolution `recent`); the key check, the plan's verdict and the rate
 * limit are one conditional write (apiKeyAuth); server-side GETs of a gallery read it beside that
 * write (prefetchGallery); a public GET on an instance that has not read the tenant lately reads
 * the gallery's pointer beside the tenant (prefetchGalleryPointer). The checks keep their order.
 */
export function accessEndpoint(stages: AccessStages, routeId: RouteId, body: EndpointBody) {
  const route = findRoute(routeId);
  if (route.access !== stages.access)
    throw new Error(`${routeId} is a ${route.access} route, not a ${stages.access} one`);
  const handler = middy<ApiEvent, ApiResponse, Error, ApiContext>()
    .use(requestId())
    .use(requestLogging(route.id))
    .use(stages.outermost());
  if (route.method === 'POST') handler.use(idempotencyFinish());
  handler
    .use(errorResponses())
    .use(originVerify())
    .use(methodCheck([route]))
    .use(stages.beforeTenant(route))
    .use(tenantResolution({ recent: route.method === 'GET' || route.access === 'public' }))
    .use(stages.afterTenant(route));
  if (route.method === 'POST') handler.use(jsonBody());
  handler.use(stages.afterBody());
  if (route.method === 'POST') handler.use(idempotencyStart(route.id));
  return handler.handler(async (event, context) => {
    const tenant = context.tenant;
    if (!tenant) throw new Error('tenantResolution did not run');
    const members = await body({
      body: (event.body ?? {}) as Record<string, unknown>,
      pathParameters: context.pathParameters,
      query: (event.queryStringParameters ?? {}) as Record<string, string>,
      tenant,
      gallery: context.gallery ?? (await context.galleryLookup),
      clientAddress: context.clientAddress,
      answerConcerns: (personIds) => {
        context.answerPersonIds = [...personIds];
      },
    });
    return jsonResponse(route.successStatus ?? 200, members, context.requestId);
  }) as unknown as (event: ApiEvent, context: Context) => Promise<ApiResponse>;
}

/** What a webhook body sees: the exact raw body (signatures are computed over it) and the headers. */
export interface WebhookInput {
  rawBody: string;
  headers: Record<string, string | undefined>;
  requestId: string;
}

/**
 * The preset of webhook routes: request ID, logging, errors, the origin check and the method check, but no
 * tenant, key or JSON parsing: the sender is authenticated by the body's signature.
 */
export function webhookEndpoint(routeId: RouteId, body: (input: WebhookInput) => Promise<EndpointResult>) {
  const route = findRoute(routeId);
  return middy<ApiEvent, ApiResponse, Error, ApiContext>()
    .use(requestId())
    .use(requestLogging(route.id))
    .use(errorResponses())
    .use(originVerify())
    .use(methodCheck([route]))
    .handler(async (event, context) => {
      const raw = typeof event.body === 'string' ? event.body : '';
      const rawBody = event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
      const members = await body({ rawBody, headers: event.headers ?? {}, requestId: context.requestId });
      return jsonResponse(200, members, context.requestId);
    }) as unknown as (event: ApiEvent, context: Context) => Promise<ApiResponse>;
}

/** What a link route's body sees: its method, the path's parameters, the exact raw body and the headers. */
export interface LinkInput {
  method: string;
  pathParameters: Record<string, string>;
  rawBody: string;
  headers: Record<string, string | undefined>;
}

/** A link route's answer: JSON members (with ok and requestId added), or a page of HTML. */
export type LinkAnswer = { json: EndpointResult } | { html: string };

/**
 * Headers of a link route's HTML page: never cached or stored (the address is a secret), no
 * referrer leaving it, no script, and forms only to itself.
 */
const LINK_PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
};

/**
 * The preset of link routes (one function for the routes `routeIds`, a page's GET and its POST):
 * request ID, logging, errors, the origin check and the method check, but no tenant header, key,
 * CORS or JSON parsing: the signed link in the path names whom it is for, and mail providers
 * POST a form body. Errors are the JSON of every route.
 */
export function linkEndpoint(routeIds: readonly RouteId[], body: (input: LinkInput) => Promise<LinkAnswer>) {
  const served = routeIds.map(findRoute);
  return middy<ApiEvent, ApiResponse, Error, ApiContext>()
    .use(requestId())
    .use(requestLogging(served.map((route) => route.id).join('+')))
    .use(errorResponses())
    .use(originVerify())
    .use(methodCheck(served))
    .handler(async (event, context) => {
      const raw = typeof event.body === 'string' ? event.body : '';
      const answer = await body({
        method: context.route?.method ?? '',
        pathParameters: context.pathParameters,
        rawBody: event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw,
        headers: event.headers ?? {},
      });
      if ('json' in answer) return jsonResponse(200, answer.json, context.requestId);
      return {
        statusCode: 200,
        headers: { ...LINK_PAGE_HEADERS, 'X-Request-Id': context.requestId },
        body: answer.html,
      };
    }) as unknown as (event: ApiEvent, context: Context) => Promise<ApiResponse>;
}

/** Answers the CORS preflight of a public path: 204 with the allowed methods and headers, no tenant needed. */
export function corsPreflight() {
  return middy<ApiEvent, ApiResponse, Error, ApiContext>()
    .use(requestId())
    .use(requestLogging('corsPreflight'))
    .use(errorResponses())
    .use(originVerify())
    .use(methodCheck((routes as readonly Route[]).filter((route) => route.handler === CORS_PREFLIGHT_HANDLER)))
    .handler(async (event) => ({ statusCode: 204, headers: preflightHeaders(event), body: '' })) as unknown as (
    event: ApiEvent,
    context: Context,
  ) => Promise<ApiResponse>;
}

/** The function behind the catch-all routes: every request gets 404 not_found or 405. */
export function unmatchedRoute() {
  return middy<ApiEvent, ApiResponse, Error, ApiContext>()
    .use(requestId())
    .use(requestLogging('unmatched'))
    .use(errorResponses())
    .use(originVerify())
    .use(methodCheck([]))
    .handler(async () => {
      throw new ApiError('not_found');
    }) as unknown as (event: ApiEvent, context: Context) => Promise<ApiResponse>;
}
