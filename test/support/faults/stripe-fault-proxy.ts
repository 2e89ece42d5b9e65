/**
 * The Stripe fault proxy: the service's real Stripe SDK talks to it (STRIPE_API_BASE), it talks
 * to the emulator, and it fails calls on demand (HTTP 500, connection reset, or only the first
 * attempt of each call). It counts calls and attempts the way the SDK retries them: a retry is
 * the same method, path and Idempotency-Key right after a failure.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lab, nextFaultNumber } from './fault-lab';
import { services } from './local-services';

export type StripeMode = 'pass' | 'down' | 'reset' | 'flaky';

export interface StripeCall {
  signature: string;
  attempts: number;
  lastFailed: boolean;
}

export const stripeLab = {
  mode: 'pass' as StripeMode,
  recording: false,
  calls: [] as StripeCall[],
  last: undefined as StripeCall | undefined,
};
let stripeProxy: Server | undefined;

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function proxyStripe(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const body = await readBody(request);
  const path = request.url ?? '/';
  const signature = `${request.method} ${path.split('?')[0]} ${String(request.headers['idempotency-key'] ?? '')}`;
  const last = stripeLab.last;
  const retry = last !== undefined && last.signature === signature && last.lastFailed;
  const call = retry ? last : { signature, attempts: 0, lastFailed: false };
  call.attempts += 1;
  stripeLab.last = call;
  if (stripeLab.recording && !retry) stripeLab.calls.push(call);
  const fail = stripeLab.mode === 'down' || stripeLab.mode === 'reset' || (stripeLab.mode === 'flaky' && !retry);
  call.lastFailed = fail;
  if (fail && stripeLab.mode === 'reset') {
    request.socket.destroy();
    return;
  }
  if (fail) {
    response.writeHead(500, { 'Content-Type': 'application/json', 'Request-Id': `req_fault${nextFaultNumber()}` });
    response.end(
      JSON.stringify({ error: { type: 'api_error', message: 'An unexpected error occurred (injected outage).' } }),
    );
    return;
  }
  const headers = Object.fromEntries(
    Object.entries(request.headers).filter(([name]) => !['host', 'content-length', 'connection'].includes(name)),
  ) as Record<string, string>;
  const upstream = await fetch(`${services.emulator.url}${path}`, {
    method: request.method,
    headers,
    body: request.method === 'GET' || request.method === 'HEAD' ? undefined : body,
  });
  response.writeHead(upstream.status, {
    'Content-Type': upstream.headers.get('content-type') ?? 'application/json',
    'Request-Id': upstream.headers.get('request-id') ?? 'req_proxy',
  });
  response.end(Buffer.from(await upstream.arrayBuffer()));
}

/**
 * Events the emulator sends on its own while a request runs (the expiry of a session the request
 * expired) are delivered once that request has answered and the fault is gone, as Stripe
 * delivers them asynchronously and retries them until they succeed: they are requests of their
 * own, not part of the one measured.
 */
const deferredDeliveries: (() => Promise<void>)[] = [];

export async function flushDeliveries(): Promise<void> {
  while (deferredDeliveries.length > 0) await deferredDeliveries.shift()!();
}

/** Puts the proxy between the service and the emulator, and defers the emulator's deliveries while a request is measured. */
export async function startStripeFaultProxy(): Promise<void> {
  const proxy = createServer((request, response) => {
    proxyStripe(request, response).catch((error: Error) => {
      if (!response.headersSent) response.writeHead(502, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ error: { type: 'api_error', message: error.message } }));
    });
  });
  stripeProxy = proxy;
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', () => resolve()));
  process.env.STRIPE_API_BASE = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  const emulator = services.emulator;
  const deliver = emulator.deliver.bind(emulator);
  emulator.deliver = (...args) => {
    if (!lab.recording) return deliver(...args);
    return new Promise<number>((resolve, reject) => {
      deferredDeliveries.push(() => deliver(...args).then(resolve, reject));
    });
  };
}

export async function stopStripeFaultProxy(): Promise<void> {
  await new Promise((resolve) => stripeProxy?.close(resolve));
}

/** Stripe expires, at expires_at, every session of the gallery that nobody paid. */
export async function expireOpenSessions(galleryToken: string): Promise<void> {
  for (const session of [...services.emulator.sessions.values()]) {
    if (session.metadata?.galleryToken === galleryToken && session.status === 'open')
      await services.emulator.expire(session.id);
  }
}
