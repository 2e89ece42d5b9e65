import type { Server } from 'node:http';
import startSesServer from 'aws-ses-v2-local';
import { freePort } from './free-port';

/** An email as the emulator stored it (its GET /store). */
export interface StoredEmail {
  messageId: string;
  from: string;
  destination: { to: string[]; cc: string[]; bcc: string[] };
  subject: string;
  body: { text?: string; html?: string };
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

/**
 * A local SES (API v1 and v2): aws-ses-v2-local, in this process, on 127.0.0.1. SendEmail lands in
 * its inbox, which its own page shows live (the endpoint in a browser); emails live in memory
 * until the process ends.
 */
export async function startSesLocal(options: { port?: number } = {}): Promise<RunningSes> {
  const port = options.port ?? (await freePort());
  const server: Server = await startSesServer({ host: '127.0.0.1', port });
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
