/**
 * The studio console's HTTP server (docs/studio-console.md): the page in web/studio/ and a small JSON API,
 * on 127.0.0.1 only, every path behind a random session secret (`/<secret>/...`, else 403), a
 * Host header that names the loopback address (else 403, against DNS rebinding), and strict
 * security headers. The API (studio-api.ts) runs the admin CLI's commands (studio-commands.ts) for one tenant.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describeFailure } from '../cli-kit/cli-errors';
import { findTenant } from '../cli-kit/lookups';
import { refusal, studioApi } from './studio-api';
import { ThumbnailCache } from './thumbnails';

const PAGE_FOLDER = join(__dirname, '..', '..', 'web', 'studio');

/** The page's files, by the name the browser asks for: nothing else is read from disk. */
const PAGE_FILES: Record<string, { file: string; contentType: string }> = {
  '': { file: 'index.html', contentType: 'text/html; charset=utf-8' },
  'studio.js': { file: 'studio.js', contentType: 'text/javascript; charset=utf-8' },
  'studio-views.js': { file: 'studio-views.js', contentType: 'text/javascript; charset=utf-8' },
  'studio.css': { file: 'studio.css', contentType: 'text/css; charset=utf-8' },
};

const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  // The secret is in every URL: no Referer may carry it elsewhere.
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

export interface StudioOptions {
  /** The tenant slug whose galleries the console shows. */
  tenant: string;
  /** 0 (the default): a free port. */
  port?: number;
  /** The session secret; a random one by default (tests give none either). */
  secret?: string;
  thumbnails?: ThumbnailCache;
}

export interface Studio {
  /** The console's address with the secret, ending in `/`. */
  url: string;
  port: number;
  secret: string;
  close(): Promise<void>;
}

/** Starts the console on 127.0.0.1 and resolves once it listens; a NotFoundError first when the tenant does not exist. */
export async function startStudio(options: StudioOptions): Promise<Studio> {
  const { tenantId } = await findTenant({ tenant: options.tenant });
  const secret = options.secret ?? randomBytes(24).toString('base64url');
  const answerApi = studioApi({
    tenant: options.tenant,
    tenantId,
    thumbnails: options.thumbnails ?? new ThumbnailCache(),
  });
  let port = 0;

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      // One line on the terminal that started the console, as the CLI prints a failure; never the URL, which holds the secret.
      console.error(`Studio console: ${request.method} failed: ${describeFailure(error)}`);
      if (!response.headersSent)
        sendJson(response, 500, { ok: false, error: 'internal', message: 'The console failed; see its terminal' });
      else response.destroy();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const host = request.headers.host ?? '';
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`)
      return sendJson(response, 403, refusal('forbidden_host', 'The console answers only at 127.0.0.1'));
    const url = new URL(request.url ?? '/', `http://127.0.0.1:${port}`);
    const [, given = '', ...rest] = url.pathname.split('/');
    if (!sameSecret(given, secret))
      return sendJson(
        response,
        403,
        refusal('forbidden', 'Open the console at the URL npm run studio printed, secret included'),
      );
    const path = rest.join('/');
    if (path.startsWith('api/')) {
      let segments: string[];
      try {
        segments = path.slice('api/'.length).split('/').map(decodeURIComponent);
      } catch {
        return sendJson(response, 400, refusal('invalid_path', 'The address is not valid percent-encoding'));
      }
      const reply = await answerApi(request, url, segments);
      if (reply.file && reply.body instanceof Buffer)
        return send(response, reply.status, reply.file.contentType, reply.body, reply.file.headers);
      return sendJson(response, reply.status, reply.body);
    }
    const page = PAGE_FILES[path];
    if (!page || request.method !== 'GET') return sendJson(response, 404, refusal('not_found', 'No such page'));
    return send(response, 200, page.contentType, await readFile(join(PAGE_FOLDER, page.file)));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/${secret}/`,
    port,
    secret,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** Constant time, so that the answer's timing says nothing about how much of a guess was right. */
function sameSecret(given: string, secret: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  send(response, status, 'application/json; charset=utf-8', Buffer.from(JSON.stringify(body)));
}

function send(
  response: ServerResponse,
  status: number,
  contentType: string,
  body: Buffer,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    ...headers,
    'Content-Type': contentType,
    'Content-Length': body.length,
  });
  response.end(body);
}
