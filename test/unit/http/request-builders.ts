import type { ApiContext, ApiEvent, ApiMiddleware, ApiRequest, ApiResponse } from '#lib/http/types';

/** What a test says about the request; everything else gets API Gateway's usual values. */
export interface EventOptions {
  method?: string;
  /** The raw path, stage segment included when `stage` names one. */
  path?: string;
  stage?: string;
  headers?: Record<string, string | undefined>;
  body?: unknown;
  isBase64Encoded?: boolean;
  /** API Gateway's request ID; `null` for an event without one. */
  requestId?: string | null;
  pathParameters?: Record<string, string>;
}

/** An API Gateway HTTP API event (payload format 2.0). */
export function apiEvent(options: EventOptions = {}): ApiEvent {
  const method = options.method ?? 'GET';
  const path = options.path ?? '/group-shoot';
  return {
    version: '2.0',
    routeKey: `${method} ${path}`,
    rawPath: path,
    rawQueryString: '',
    headers: options.headers ?? {},
    pathParameters: options.pathParameters,
    requestContext: {
      accountId: '123456789012',
      apiId: 'unit',
      domainName: 'api.example.com',
      domainPrefix: 'api',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '192.0.2.1', userAgent: 'unit-test' },
      requestId:
        options.requestId === null ? (undefined as unknown as string) : (options.requestId ?? 'req-from-gateway'),
      routeKey: `${method} ${path}`,
      stage: options.stage ?? '$default',
      time: '01/Jan/2027:00:00:00 +0000',
      timeEpoch: 1_798_761_600_000,
    },
    body: options.body,
    isBase64Encoded: options.isBase64Encoded ?? false,
  };
}

/** A Lambda context with the members the pipeline adds, as requestId() leaves them. */
export function apiContext(overrides: Partial<ApiContext> = {}): ApiContext {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'unit-test-function',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:eu-central-1:123456789012:function:unit-test-function',
    memoryLimitInMB: '1024',
    awsRequestId: 'lambda-request-id',
    logGroupName: '/aws/lambda/unit-test-function',
    logStreamName: 'unit',
    getRemainingTimeInMillis: () => 30_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
    requestId: 'req-from-gateway',
    responseHeaders: {},
    pathParameters: {},
    ...overrides,
  };
}

/** The request object middy hands to each middleware step. */
export function apiRequest(event: ApiEvent = apiEvent(), context: Partial<ApiContext> = {}): ApiRequest {
  return { event, context: apiContext(context), response: null, error: null, internal: {} };
}

/** A plain 200 answer, as a handler would return it. */
export function okResponse(members: Record<string, unknown> = {}, statusCode = 200): ApiResponse {
  return {
    statusCode,
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ ok: statusCode < 400, ...members }),
  };
}

/** The JSON body of a response. */
export function bodyOf(response: ApiResponse | null | undefined): Record<string, unknown> {
  if (!response) throw new Error('The request has no response');
  return JSON.parse(String(response.body)) as Record<string, unknown>;
}

type Step = 'before' | 'after' | 'onError';

async function run(step: Step, middleware: ApiMiddleware, request: ApiRequest): Promise<void> {
  const stepFunction = middleware[step];
  if (!stepFunction) throw new Error(`The middleware has no ${step} step`);
  await stepFunction(request);
}

/** Runs the middleware's `before` step, as middy does on the way in. */
export const runBefore = (middleware: ApiMiddleware, request: ApiRequest) => run('before', middleware, request);
/** Runs the middleware's `after` step, as middy does after the handler answered. */
export const runAfter = (middleware: ApiMiddleware, request: ApiRequest) => run('after', middleware, request);
/** Runs the middleware's `onError` step with `error` as the request's error. */
export const runOnError = (middleware: ApiMiddleware, request: ApiRequest, error?: unknown) => {
  if (error !== undefined) request.error = error as Error;
  return run('onError', middleware, request);
};
