import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildOpenApiDocument } from '../openapi/build-openapi';

/** Where the local API serves its reference: the OpenAPI document rendered by Redoc. */
export const DOCS_PATH = '/docs';

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>groupshoot-api reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><redoc spec-url="${DOCS_PATH}/openapi.json"></redoc><script src="${DOCS_PATH}/redoc.standalone.js"></script></body></html>`;

/** /docs (the rendered reference), /docs/openapi.json (built from the code as it is now) and Redoc's bundle. */
export async function serveApiDocs(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const path = new URL(request.url ?? '/', 'http://localhost').pathname;
  if (path === `${DOCS_PATH}/openapi.json`) {
    response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(buildOpenApiDocument()));
  } else if (path === `${DOCS_PATH}/redoc.standalone.js`) {
    const bundle = await readFile(require.resolve('redoc/bundles/redoc.standalone.js'));
    response.writeHead(200, { 'Content-Type': 'text/javascript', 'Cache-Control': 'max-age=3600' }).end(bundle);
  } else {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(PAGE);
  }
}
