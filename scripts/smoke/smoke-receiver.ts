import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebhookEnvelope, constructWebhookEvent } from '#lib/client/webhook-signature';

/** The smoke check's own webhook endpoint: it keeps every delivery whose signature verifies. */
export interface SmokeReceiver {
  readonly port: number;
  /** Set once the subscription exists: deliveries before it cannot verify. */
  secret: string;
  /** Resolves with the first verified event that `matches`, or undefined after `timeoutMs`. */
  waitFor(matches: (event: WebhookEnvelope) => boolean, timeoutMs: number): Promise<WebhookEnvelope | undefined>;
  close(): Promise<void>;
}

/** Listens on `port` (0: any free one) of every address, so a tunnel or the local API reaches it. */
export async function startSmokeReceiver(port: number): Promise<SmokeReceiver> {
  const received: WebhookEnvelope[] = [];
  const listeners = new Set<() => void>();
  let secret = '';
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        const signature = request.headers['groupshoot-signature'] as string | undefined;
        received.push(constructWebhookEvent(Buffer.concat(chunks), signature, secret));
        response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"received":true}');
        listeners.forEach((listener) => listener());
      } catch {
        response.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    set secret(value: string) {
      secret = value;
    },
    get secret() {
      return secret;
    },
    waitFor(matches, timeoutMs) {
      return new Promise((resolve) => {
        const check = () => {
          const event = received.find(matches);
          if (!event) return;
          finish(event);
        };
        const timer = setTimeout(() => finish(undefined), timeoutMs);
        const finish = (event: WebhookEnvelope | undefined) => {
          clearTimeout(timer);
          listeners.delete(check);
          resolve(event);
        };
        listeners.add(check);
        check();
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
