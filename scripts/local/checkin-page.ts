import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { QR_ENCODER_FILE, buildQrEncoder } from '../../infra/checkin-page-assets';
import { checkinPageSecurityHeaders } from '../../infra/checkin-page-headers';

/** Where the local API serves the reference check-in page (web/). */
export const CHECKIN_PAGE_PATH = '/checkin';

const WEB_DIR = join(__dirname, '..', '..', 'web');
/** The page's own files: scripts and style sheets in web/ and its messages/ folder. */
const PAGE_FILE = /^(?:messages\/)?[a-z0-9-]+\.(js|css)$/;
const CONTENT_TYPES: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };

/**
 * Serves web/ as CloudFront serves the deployed page: its files, config.js with this API's
 * base URL and the page's tenant, the QR encoder built as the stack builds it
 * (infra/checkin-page-assets.ts), and index.html for every other path (so /checkin/<token>
 * works as well as /checkin/?token=<token>), each with the page's security headers
 * (infra/checkin-page-headers.ts) for this API and the local photo CDN, HSTS aside (plain http).
 */
export async function serveCheckinPage(
  request: IncomingMessage,
  response: ServerResponse,
  options: { tenantSlug?: string },
) {
  const name = new URL(request.url ?? '/', 'http://localhost').pathname.slice(CHECKIN_PAGE_PATH.length + 1);
  const apiBaseUrl = `http://${request.headers.host}/v1`;
  const headers = checkinPageSecurityHeaders({ apiBaseUrl, photoCdnUrl: process.env.PHOTO_CDN_URL }, { https: false });
  if (name === 'config.js') {
    const config = { apiBaseUrl, tenantSlug: options.tenantSlug };
    response.writeHead(200, {
      ...headers,
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'no-store',
    });
    response.end(`window.GROUPSHOOT_CONFIG = ${JSON.stringify(config)};\n`);
    return;
  }
  if (name === QR_ENCODER_FILE) {
    response.writeHead(200, { ...headers, 'Content-Type': 'text/javascript; charset=utf-8' });
    response.end(buildQrEncoder());
    return;
  }
  const own = PAGE_FILE.exec(name);
  const content = own ? await readFile(join(WEB_DIR, name)).catch(() => undefined) : undefined;
  if (own && content) {
    response.writeHead(200, { ...headers, 'Content-Type': CONTENT_TYPES[own[1]!]! });
    response.end(content);
    return;
  }
  response.writeHead(200, { ...headers, 'Content-Type': 'text/html; charset=utf-8' });
  response.end(await readFile(join(WEB_DIR, 'index.html')));
}
