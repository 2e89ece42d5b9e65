import { randomBytes } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { parse } from 'qs';
import Stripe from 'stripe';

/**
 * A small stand-in for Stripe's API, speaking its wire format (form-encoded requests, JSON
 * objects and errors, Stripe-Account and Idempotency-Key headers) for exactly the calls this
 * service makes: Checkout Sessions (create, retrieve, expire) and accounts (retrieve). It also
 * plays the hosted checkout page, with Pay and Cancel buttons, and delivers the resulting
 * events to the webhook URL, signed the way Stripe signs them.
 */
export interface EmulatedAccount {
  charges_enabled: boolean;
  card_payments: 'active' | 'inactive' | 'pending';
}

type Session = Record<string, any> & { id: string; account: string };

/** The API calls the emulator answers, named as the SDK names them. */
export type EmulatedOperation =
  'accounts.retrieve' | 'checkout.sessions.create' | 'checkout.sessions.retrieve' | 'checkout.sessions.expire';

/** A slow Stripe: how late calls are answered, and how many more of them (undefined: all). */
interface Slowness {
  ms: number;
  remaining?: number;
}

export interface StripeEmulator {
  url: string;
  webhookSecret: string;
  /** Where events are posted; set once the API is listening. */
  webhookUrl?: string;
  sessions: Map<string, Session>;
  setAccount(id: string, account: EmulatedAccount): void;
  /** The next `count` API calls answer 500, as an outage would. */
  failNextCalls(count: number): void;
  /**
   * API calls are answered `ms` late, as a slow Stripe answers them: every call, or the next
   * `count` (each SDK attempt is a call). With an `operation`, only its calls, and a rule for
   * one operation goes before the rule for all. A delayed call is carried out when its answer
   * is sent, whether or not the client still waits for it. `delayCalls(0)` ends every delay.
   */
  delayCalls(ms: number, options?: { count?: number; operation?: EmulatedOperation }): void;
  /** Completes a session as the Pay button does, and delivers checkout.session.completed. */
  pay(sessionId: string): Promise<void>;
  /** Expires an open session as Stripe does at expires_at, and delivers checkout.session.expired. */
  expire(sessionId: string): Promise<void>;
  /** Signs and delivers an event; answers the webhook's HTTP status. */
  deliver(type: string, account: string, object: Record<string, unknown>, eventId?: string): Promise<number>;
  /** Resolves once the events the emulator sent on its own (after an API call) are delivered. */
  deliveriesSettled(): Promise<void>;
  close(): Promise<void>;
}

const API_VERSION = '2026-10-28.endive';
const signer = new Stripe('sk_test_emulator');

function id(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': id('req') });
  response.end(JSON.stringify(body));
}

function stripeError(response: ServerResponse, status: number, type: string, message: string): void {
  sendJson(response, status, { error: { type, message } });
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startStripeEmulator(
  options: { webhookSecret?: string; port?: number } = {},
): Promise<StripeEmulator> {
  const sessions = new Map<string, Session>();
  const accounts = new Map<string, EmulatedAccount>();
  const idempotent = new Map<string, Session>();
  let failures = 0;
  const slowness = new Map<EmulatedOperation | 'any', Slowness>();
  const delays = new Set<ReturnType<typeof setTimeout>>();

  /** How long to hold this call back, counting it against `delayCalls`' count. */
  function delayOf(operation: EmulatedOperation | undefined): number {
    const rule = [operation && slowness.get(operation), slowness.get('any')].find(
      (candidate) => candidate && candidate.remaining !== 0,
    );
    if (!rule) return 0;
    if (rule.remaining !== undefined) rule.remaining -= 1;
    return rule.ms;
  }

  function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        delays.delete(timer);
        resolve();
      }, ms);
      delays.add(timer);
    });
  }

  // Like Stripe, an expiry through the API is answered before its event is delivered.
  const backgroundDeliveries = new Set<Promise<void>>();
  const emulator: StripeEmulator = {
    url: '',
    webhookSecret: options.webhookSecret ?? `whsec_${randomBytes(16).toString('hex')}`,
    sessions,
    setAccount: (accountId, account) => accounts.set(accountId, account),
    failNextCalls: (count) => {
      failures = count;
    },
    delayCalls: (ms, delayOptions = {}) => {
      if (ms <= 0 && !delayOptions.operation) slowness.clear();
      else if (ms <= 0) slowness.delete(delayOptions.operation!);
      else slowness.set(delayOptions.operation ?? 'any', { ms, remaining: delayOptions.count });
    },
    async pay(sessionId) {
      const session = sessions.get(sessionId);
      if (!session || session.status !== 'open') throw new Error(`Session ${sessionId} is not open`);
      Object.assign(session, { status: 'complete', payment_status: 'paid', payment_intent: id('pi') });
      await emulator.deliver('checkout.session.completed', session.account, publicSession(session));
    },
    async expire(sessionId) {
      const session = sessions.get(sessionId);
      if (!session || session.status !== 'open') throw new Error(`Session ${sessionId} is not open`);
      session.status = 'expired';
      await emulator.deliver('checkout.session.expired', session.account, publicSession(session));
    },
    async deliver(type, account, object, eventId = id('evt')) {
      if (!emulator.webhookUrl) throw new Error('No webhook URL to deliver to');
      const payload = JSON.stringify({
        id: eventId,
        object: 'event',
        api_version: API_VERSION,
        created: Math.floor(Date.now() / 1000),
        type,
        account,
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        data: { object },
      });
      const signature = signer.webhooks.generateTestHeaderString({ payload, secret: emulator.webhookSecret });
      const answer = await fetch(emulator.webhookUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature },
        body: payload,
      });
      await answer.arrayBuffer();
      return answer.status;
    },
    async deliveriesSettled() {
      // A delivery's handling may call the API again and start another one.
      while (backgroundDeliveries.size > 0) await Promise.all([...backgroundDeliveries]);
    },
    close: () =>
      new Promise((resolve) => {
        // Calls still held back are never answered; their connections are closed with the server.
        for (const timer of delays) clearTimeout(timer);
        delays.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };

  const publicSession = ({ account: _account, ...session }: Session) => session;

  async function api(request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
    if (!/^Bearer sk_/.test(request.headers.authorization ?? '')) {
      return stripeError(response, 401, 'invalid_request_error', 'Invalid API Key provided.');
    }
    const method = request.method ?? 'GET';
    // Read first, so that a call the client gave up on meanwhile is still carried out.
    const params = parse(await readBody(request), { depth: 10 }) as Record<string, any>;
    const delay = delayOf(operationOf(method, path));
    if (delay > 0) await sleep(delay);
    if (failures > 0) {
      failures -= 1;
      return stripeError(response, 500, 'api_error', 'An unexpected error occurred (emulated outage).');
    }
    const account = String(request.headers['stripe-account'] ?? '');
    let match: RegExpExecArray | null;

    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const key = `${account}:${String(request.headers['idempotency-key'] ?? id('key'))}`;
      const existing = idempotent.get(key);
      if (existing) return sendJson(response, 200, publicSession(existing));
      if (!account)
        return stripeError(
          response,
          400,
          'invalid_request_error',
          'This emulator expects direct charges (Stripe-Account).',
        );
      const item = params.line_items?.[0];
      const amount = Number(item?.price_data?.unit_amount) * Number(item?.quantity ?? 1);
      const sessionId = id('cs_test');
      const session: Session = {
        id: sessionId,
        object: 'checkout.session',
        account,
        mode: params.mode,
        status: 'open',
        payment_status: 'unpaid',
        amount_total: amount,
        currency: item?.price_data?.currency,
        customer_email: params.customer_email ?? null,
        metadata: params.metadata ?? {},
        success_url: params.success_url,
        cancel_url: params.cancel_url,
        expires_at: Number(params.expires_at),
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        payment_intent: null,
        application_fee_amount: Number(params.payment_intent_data?.application_fee_amount ?? 0),
        product_name: item?.price_data?.product_data?.name,
        url: `${emulator.url}/pay/${sessionId}`,
      };
      sessions.set(sessionId, session);
      idempotent.set(key, session);
      return sendJson(response, 200, publicSession(session));
    }
    if ((match = /^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/.exec(path))) {
      const session = sessions.get(match[1]!);
      if (!session || session.account !== account) {
        return stripeError(response, 404, 'invalid_request_error', `No such checkout.session: '${match[1]}'`);
      }
      if (method === 'POST' && match[2]) {
        if (session.status !== 'open') {
          return stripeError(
            response,
            400,
            'invalid_request_error',
            'Only Checkout Sessions with a status of open can be expired.',
          );
        }
        session.status = 'expired';
        const delivery = emulator.deliver('checkout.session.expired', session.account, publicSession(session)).then(
          () => undefined,
          () => undefined,
        );
        backgroundDeliveries.add(delivery);
        void delivery.finally(() => backgroundDeliveries.delete(delivery));
      }
      return sendJson(response, 200, publicSession(session));
    }
    if (method === 'GET' && (match = /^\/v1\/accounts\/([^/]+)$/.exec(path))) {
      const settings = accounts.get(match[1]!) ?? { charges_enabled: true, card_payments: 'active' };
      return sendJson(response, 200, {
        id: match[1],
        object: 'account',
        charges_enabled: settings.charges_enabled,
        capabilities: { card_payments: settings.card_payments },
      });
    }
    return stripeError(response, 404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}).`);
  }

  /** The hosted checkout page: what the participant sees between check-in and the return URL. */
  async function hostedPage(request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
    const [, , sessionId, action] = path.split('/');
    const session = sessions.get(sessionId ?? '');
    if (!session) return void response.writeHead(404, { 'Content-Type': 'text/plain' }).end('No such checkout');
    if (request.method === 'POST' && action === 'pay') {
      if (session.status === 'open') await emulator.pay(session.id);
      return void response.writeHead(303, { Location: session.success_url }).end();
    }
    if (request.method === 'POST' && action === 'cancel') {
      return void response.writeHead(303, { Location: session.cancel_url }).end();
    }
    const price = `${(session.amount_total / 100).toFixed(2)} ${String(session.currency).toUpperCase()}`;
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Checkout (local Stripe emulator)</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}button{font-size:1.1rem;padding:.6rem 1.2rem;margin-right:.5rem}</style></head>
<body><p><small>Local Stripe emulator: no money moves.</small></p>
<h1>${escapeHtml(String(session.product_name ?? 'Package'))}</h1><p id="amount">${escapeHtml(price)}</p>
<p>${escapeHtml(String(session.customer_email ?? ''))}</p>
${
  session.status === 'open'
    ? `<form method="post" action="/pay/${session.id}/pay"><button id="pay" type="submit">Pay</button></form>
<form method="post" action="/pay/${session.id}/cancel"><button id="cancel" type="submit">Cancel</button></form>`
    : `<p id="state">This checkout is ${escapeHtml(session.status)}.</p>`
}
</body></html>`);
  }

  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://emulator').pathname;
    const work = path.startsWith('/v1/') ? api(request, response, path) : hostedPage(request, response, path);
    work.catch((error: Error) => stripeError(response, 500, 'api_error', error.message));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', () => resolve()));
  const address = server.address();
  emulator.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return emulator;
}

function operationOf(method: string, path: string): EmulatedOperation | undefined {
  if (method === 'GET' && /^\/v1\/accounts\/[^/]+$/.test(path)) return 'accounts.retrieve';
  if (method === 'POST' && path === '/v1/checkout/sessions') return 'checkout.sessions.create';
  if (method === 'GET' && /^\/v1\/checkout\/sessions\/[^/]+$/.test(path)) return 'checkout.sessions.retrieve';
  if (method === 'POST' && /^\/v1\/checkout\/sessions\/[^/]+\/expire$/.test(path)) return 'checkout.sessions.expire';
  return undefined;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
