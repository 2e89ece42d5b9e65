import type { IncomingMessage } from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';

export const STAGE = 'v1';

/** API Gateway's request IDs are short opaque strings; this imitates their shape. */
export function newRequestId(): string {
  return randomBytes(12).toString('base64url');
}

/** What API Gateway reads of an HTTP request: from a socket (the local server) or built in process (the load bench). */
export interface GatewayRequest {
  method: string;
  /** Lowercase names, as Node gives them. */
  headers: Record<string, string | string[] | undefined>;
  httpVersion: string;
  sourceIp: string;
}

/** The parts of an IncomingMessage API Gateway reads. */
export function gatewayRequestOf(request: IncomingMessage): GatewayRequest {
  return {
    method: request.method ?? 'GET',
    headers: request.headers,
    httpVersion: request.httpVersion,
    sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
  };
}

/** The event API Gateway HTTP API (payload format 2.0) would send for this request. */
export function toApiGatewayEvent(
  request: GatewayRequest,
  url: URL,
  body: Buffer,
  match: { routeKey: string; pathParameters?: Record<string, string> },
  requestId: string,
): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name === 'cookie') continue;
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = name in query ? `${query[name]},${value}` : value;
  const contentType = headers['content-type'] ?? '';
  const textual =
    contentType === '' || /^(text\/|application\/(.+\+)?(json|xml|x-www-form-urlencoded))/i.test(contentType);
  const now = new Date();
  const cookie = request.headers.cookie;
  return {
    version: '2.0',
    routeKey: match.routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.replace(/^\?/, ''),
    cookies: (Array.isArray(cookie) ? cookie.join(';') : cookie)?.split(';').map((part) => part.trim()),
    headers,
    queryStringParameters: Object.keys(query).length > 0 ? query : undefined,
    pathParameters: match.pathParameters,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: (headers.host ?? 'localhost').split('.')[0] ?? 'localhost',
      http: {
        method: request.method,
        path: url.pathname,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: request.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey: match.routeKey,
      stage: STAGE,
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    body: body.length === 0 ? undefined : textual ? body.toString('utf8') : body.toString('base64'),
    isBase64Encoded: body.length > 0 && !textual,
  };
}

/** A Lambda context with API Gateway's 30-second integration timeout. */
export function lambdaContext(functionName: string): Context {
  const deadline = Date.now() + 30_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/**
 * The event of a POST to a public route as API Gateway would send it from `sourceIp` at `at`
 * (epoch ms), for calling a handler in process where each request needs an address of its own
 * (tests and benchmarks of per-client limits).
 */
export function publicPostEvent(
  route: { routeKey: string; path: string },
  headers: Record<string, string>,
  sourceIp: string,
  body: unknown,
  at: number,
): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: route.routeKey,
    rawPath: `/${STAGE}${route.path}`,
    rawQueryString: '',
    headers: { 'content-type': 'application/json', ...headers },
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method: 'POST', path: `/${STAGE}${route.path}`, protocol: 'HTTP/1.1', sourceIp, userAgent: 'in-process' },
      requestId: newRequestId(),
      routeKey: route.routeKey,
      stage: STAGE,
      time: new Date(at).toUTCString(),
      timeEpoch: at,
    },
    body: JSON.stringify(body),
    isBase64Encoded: false,
  };
}
