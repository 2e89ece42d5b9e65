import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { join } from 'node:path';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { loggableError, logger } from '#lib/platform/logger';
import { type Route, UNMATCHED_ROUTE_HANDLER, matchTemplate, pathsOf, routes } from '#lib/http/routes';
import {
  type GatewayRequest,
  STAGE,
  gatewayRequestOf,
  lambdaContext,
  newRequestId,
  toApiGatewayEvent,
} from './api-gateway-event';
import { type CdnEmulatorOptions, serveSignedObject } from './cdn-emulator';
import { CHECKIN_PAGE_PATH, serveCheckinPage } from './checkin-page';
import { DOCS_PATH, serveApiDocs } from './api-docs';
import { HTTP_HANDLERS } from '#lib/http/handlers';
import { type EdgeAnswer, LocalEdge } from './local-edge';

type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/**
 * API Gateway HTTP API refuses payloads above 10 MB itself, before any function runs, with its
 * own answer: 413 and `{"message":"Request Entity Too Large"}`, not the service's error shape
 * (no requestId, no X-Request-Id). Below it the request reaches the function, whose own limit
 * (5 MiB) answers 413 payload_too_large. Lambda's 6 MB invocation limit in between (a known
 * limit, docs/deployment.md) is not played here.
 */
const GATEWAY_PAYLOAD_LIMIT = 10 * 1024 * 1024;
const GATEWAY_PAYLOAD_TOO_LARGE: APIGatewayProxyStructuredResultV2 = {
  statusCode: 413,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ message: 'Request Entity Too Large' }),
};

const FUNCTIONS_DIR = join(__dirname, '..', '..', 'functions');

/** Where the local stand-in for the photo CloudFront distribution answers. */
export const CDN_PATH = '/cdn';

export interface LocalApi {
  url: string;
  port: number;
  /** The edge in front of the functions, when the server applies one. */
  edge?: LocalEdge;
  close(): Promise<void>;
}

/**
 * Where a client of the local front may say which address it stands for (the bench's and the
 * tests' many clients on one machine); without it, the socket's. Only the local front reads it:
 * in AWS the address is the connection's (CloudFront-Viewer-Address, or API Gateway's source IP).
 */
export const LOCAL_CLIENT_ADDRESS_HEADER = 'x-local-client-address';

interface Target {
  handlerName: string;
  routeKey: string;
  pathParameters?: Record<string, string>;
}

/**
 * Plays API Gateway locally: matches the request against the route table exactly as the
 * deployed API's routes do (method and path, `ANY` per known path, `$default`), turns it into
 * a payload-2.0 event and invokes the same handler module the Lambda function runs.
 */
export async function startLocalApi(
  options: {
    port?: number;
    host?: string;
    cdn?: Omit<CdnEmulatorOptions, 'baseUrl'>;
    checkinPage?: { tenantSlug?: string };
    docs?: boolean;
    /**
     * The stack's edge in front of the functions (local-edge.ts): the web ACL's limit per client
     * address, then each route's throttle, from the same modules the stack is built from. `true`
     * for the default deployment's; a LocalEdge of other numbers for a test.
     */
    edge?: boolean | LocalEdge;
  } = {},
): Promise<LocalApi> {
  const handlers = loadHandlers();
  const edge = options.edge === true ? new LocalEdge() : options.edge || undefined;
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    const work =
      options.cdn && path.startsWith(`${CDN_PATH}/`)
        ? serveSignedObject(request, response, { ...options.cdn, baseUrl: `http://${request.headers.host}${CDN_PATH}` })
        : options.checkinPage && (path === CHECKIN_PAGE_PATH || path.startsWith(`${CHECKIN_PAGE_PATH}/`))
          ? serveCheckinPage(request, response, options.checkinPage)
          : options.docs && (path === DOCS_PATH || path.startsWith(`${DOCS_PATH}/`))
            ? serveApiDocs(request, response)
            : serve(request, response, handlers, edge);
    work.catch((error) => {
      logger.error('local API server failure', { error: loggableError(error) });
      if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ message: 'Internal Server Error' }));
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}/${STAGE}`,
    port,
    edge,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Every HTTP function of the registry (lib/http/handlers.ts), loaded once at start as a warm Lambda container would be. */
function loadHandlers(): Map<string, LambdaHandler> {
  const handlers = new Map<string, LambdaHandler>();
  for (const name of HTTP_HANDLERS) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- each handler is loaded by its path, synchronously, as the route table names it
    handlers.set(name, (require(join(FUNCTIONS_DIR, name)) as { handler: LambdaHandler }).handler);
  }
  return handlers;
}

function resolveTarget(method: string, path: string): Target {
  const stagePrefix = `/${STAGE}`;
  const withinStage =
    path === stagePrefix ? '/' : path.startsWith(`${stagePrefix}/`) ? path.slice(stagePrefix.length) : undefined;
  let knownTemplate: string | undefined;
  if (withinStage !== undefined) {
    for (const route of routes as readonly Route[]) {
      for (const template of pathsOf(route)) {
        const pathParameters = matchTemplate(template, withinStage);
        if (!pathParameters) continue;
        if (route.method === method)
          return { handlerName: route.handler, routeKey: `${method} ${template}`, pathParameters };
        knownTemplate = template;
      }
    }
  }
  return { handlerName: UNMATCHED_ROUTE_HANDLER, routeKey: knownTemplate ? `ANY ${knownTemplate}` : '$default' };
}

async function serve(
  request: IncomingMessage,
  response: ServerResponse,
  handlers: Map<string, LambdaHandler>,
  edge: LocalEdge | undefined,
) {
  const body = await readBody(request, GATEWAY_PAYLOAD_LIMIT);
  const gatewayRequest = gatewayRequestOf(request);
  const claimed = request.headers[LOCAL_CLIENT_ADDRESS_HEADER];
  if (typeof claimed === 'string' && claimed.trim() !== '') gatewayRequest.sourceIp = claimed.trim();
  if (edge) {
    const { pathname } = new URL(`http://localhost${request.url ?? '/'}`);
    const { routeKey } = resolveTarget(gatewayRequest.method.toUpperCase(), pathname);
    const verdict = edge.admit(routeKey, gatewayRequest.sourceIp, Date.now());
    if (!verdict.admitted) {
      writeResult(response, edgeResult(verdict.answer));
      return;
    }
  }
  if (body === 'too_large') {
    writeResult(response, GATEWAY_PAYLOAD_TOO_LARGE);
    return;
  }
  writeResult(response, await invoke(handlers, gatewayRequest, request.url ?? '/', body));
}

function edgeResult(answer: EdgeAnswer): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: answer.status,
    headers: { 'Content-Type': 'application/json', ...answer.headers },
    body: JSON.stringify(answer.body),
  };
}

/** Routes the request as the deployed API does and invokes its function with API Gateway's event. */
async function invoke(
  handlers: Map<string, LambdaHandler>,
  request: GatewayRequest,
  path: string,
  body: Buffer,
): Promise<APIGatewayProxyStructuredResultV2> {
  const requestId = newRequestId();
  // Joined, not resolved against a base: a path such as `//` would read as a host otherwise.
  const url = new URL(`http://localhost${path}`);
  const target = resolveTarget(request.method.toUpperCase(), url.pathname);
  const handler = handlers.get(target.handlerName);
  if (!handler) throw new Error(`No handler ${target.handlerName}`);
  const event = toApiGatewayEvent(request, url, body, target, requestId);
  return handler(event, lambdaContext(target.handlerName.replace(/\W/g, '-')));
}

/**
 * The functions of the route table invoked in this process, without the HTTP server: what a
 * request costs the function itself, as Lambda invokes it (the load bench). `headers` with
 * lowercase names; the path includes the stage.
 */
export function inProcessApi(): (request: {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}) => Promise<APIGatewayProxyStructuredResultV2> {
  const handlers = loadHandlers();
  return (request) =>
    invoke(
      handlers,
      { method: request.method, headers: request.headers, httpVersion: '1.1', sourceIp: '127.0.0.1' },
      request.path,
      Buffer.from(request.body ?? ''),
    );
}

function readBody(request: IncomingMessage, limit: number): Promise<Buffer | 'too_large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(tooLarge ? 'too_large' : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function writeResult(response: ServerResponse, result: APIGatewayProxyStructuredResultV2 | string) {
  const structured = typeof result === 'string' ? { statusCode: 200, body: result } : result;
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(structured.headers ?? {})) headers[name] = String(value);
  if (structured.cookies?.length) headers['Set-Cookie'] = structured.cookies;
  response.writeHead(structured.statusCode ?? 200, headers);
  const payload = structured.body ?? '';
  response.end(structured.isBase64Encoded ? Buffer.from(payload, 'base64') : payload);
}
