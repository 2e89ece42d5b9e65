import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import startSesServer from 'aws-ses-v2-local';
import { freePort } from './free-port';

/** An email as the emulator stored it (its GET /store). */
export interface StoredEmail {
  messageId: string;
  from: string;
  destination: { to: string[]; cc: string[]; bcc: string[] };
  subject: string;
  body: { text?: string; html?: string };
  /** Headers the sender set beside SES's own (List-Unsubscribe). */
  headers?: { name: string; value: string }[];
  /** Unix seconds. */
  at: number;
}

export interface RunningSes {
  /** The SES API endpoint (SES_ENDPOINT) and, in a browser, the inbox. */
  endpoint: string;
  /** Every email sent so far, oldest first. */
  emails(): Promise<StoredEmail[]>;
  /** Forgets every email sent so far. */
  clear(): Promise<void>;
  stop(): Promise<void>;
}

/** How the emulator's inbox page (aws-ses-v2-local 2.10.2, static/index.html) writes each email's text view: hidden until toggled. */
export const COLLAPSED_TEXT_VIEW = 'id="${e.messageId}-text" style="display: none"';

/**
 * The emulator's own inbox page with each email's text view open. The emulator has no option for
 * it (its page shows every view collapsed behind a "Toggle" button, and it serves the page from
 * its package), so its own page is served with that one attribute taken out; everything else is
 * the package's.
 */
export function expandedInboxPage(): string {
  const page = readFileSync(join(dirname(require.resolve('aws-ses-v2-local')), '..', 'static', 'index.html'), 'utf8');
  return page.replace(COLLAPSED_TEXT_VIEW, 'id="${e.messageId}-text"');
}

/**
 * A local SES (API v1 and v2): aws-ses-v2-local, in this process, on 127.0.0.1. SendEmail lands in
 * its inbox, which its own page shows live with each email's text open (the endpoint in a
 * browser); emails live in memory until the process ends.
 */
export async function startSesLocal(options: { port?: number } = {}): Promise<RunningSes> {
  const port = options.port ?? (await freePort());
  const server: Server = await startSesServer({ host: '127.0.0.1', port });
  const inbox = expandedInboxPage();
  const [emulator] = server.listeners('request') as ((request: IncomingMessage, response: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (request.method === 'GET' && (request.url === '/' || request.url?.startsWith('/?'))) {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(inbox);
      return;
    }
    emulator!(request, response);
  });
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    async emails() {
      const response = await fetch(`${endpoint}/store`);
      if (!response.ok) throw new Error(`The SES emulator answered ${response.status} to GET /store`);
      return ((await response.json()) as { emails: StoredEmail[] }).emails;
    },
    async clear() {
      await fetch(`${endpoint}/clear-store`, { method: 'POST' });
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
