import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { now } from '#lib/platform/clock';
import { type WebhookEnvelope, WebhookSignatureError, constructWebhookEvent } from '../../lib/client/webhook-signature';

export interface ReceivedDelivery {
  event: WebhookEnvelope;
  body: string;
  headers: IncomingHttpHeaders;
}

/**
 * An integration's webhook endpoint for tests: verifies every delivery with the typed client's
 * helper and keeps what it verified, on the service's clock (tests move it, and a receiver
 * checks the signature's timestamp against its own time). `answer` decides the status code (default 200); a delivery
 * whose signature does not verify is kept in `refused` and answered 400.
 */
export interface WebhookReceiver {
  readonly url: string;
  secret: string;
  received: ReceivedDelivery[];
  refused: string[];
  /** Requests of any kind that reached the server. */
  requests: number;
  answer: (event: WebhookEnvelope) => number | Promise<number>;
  eventIds(): Set<string>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(secret = ''): Promise<WebhookReceiver> {
  const receiver: Omit<WebhookReceiver, 'url' | 'close'> = {
    secret,
    received: [],
    refused: [],
    requests: 0,
    answer: () => 200,
    eventIds: () => new Set(receiver.received.map((delivery) => delivery.event.id)),
  };
  const server: Server = createServer((request, response) => {
    receiver.requests += 1;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => void answer());
    const answer = async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        const event = constructWebhookEvent(
          body,
          request.headers['groupshoot-signature'] as string | undefined,
          receiver.secret,
          { now },
        );
        receiver.received.push({ event, body, headers: request.headers });
        response.writeHead(await receiver.answer(event)).end();
      } catch (error) {
        receiver.refused.push(error instanceof WebhookSignatureError ? error.code : 'not_json');
        response.writeHead(400).end();
      }
    };
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/webhooks`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
