import { promises as dns, lookup as systemLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { isPublicAddress, type AddressMode } from '#lib/webhooks/rules/address-policy';

/**
 * One webhook POST, and the address checks around it. A URL's host is checked twice: every
 * address it resolves to when it is registered (resolveWebhookHost), and the address each
 * connection actually goes to (request-filtering-agent checks it between the DNS answer and the
 * connect), since a name's answer can change after registration (DNS rebinding). Both judge
 * addresses by isPublicAddress; the agent's own check (ipaddr.js's ranges) stays as a second one.
 */

/** Every address of a host name, as `dns.promises.lookup(name, { all: true })` answers. */
export type LookupAll = (hostname: string) => Promise<readonly Pick<LookupAddress, 'address' | 'family'>[]>;

/** A webhook host that strict mode does not send to; `reason` is a sentence for whoever registers the URL. */
export class WebhookAddressRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'WebhookAddressRefused';
  }
}

export interface WebhookRequest {
  url: string;
  /** Sent as it is: the exact text that was signed. */
  body: string;
  headers: Record<string, string>;
  mode: AddressMode;
  /** From the start of the connection to the end of the answer read (default 10 s). */
  timeoutMs?: number;
  /** Name resolution in place of the system's, for tests. */
  lookup?: LookupAll;
}

export interface WebhookAttemptResult {
  /** A 2xx answer. */
  delivered: boolean;
  statusCode?: number;
  durationMs: number;
  failure?: 'timeout' | 'address_refused' | 'connection_failed' | 'http_status' | 'redirect';
}

const DEFAULT_TIMEOUT_MS = 10_000;
/** Receivers answer with whatever they like; we read a little so the connection can be reused, and keep none of it. */
const MAX_RESPONSE_BYTES = 4096;

const systemLookupAll: LookupAll = (hostname) => dns.lookup(hostname, { all: true });

/**
 * Kept alive between invocations: receivers are few per tenant and each attempt would otherwise
 * pay a TCP and TLS handshake. A pooled connection stays on the address that was checked when it
 * was opened.
 */
const agents = {
  strict: {
    http: new RequestFilteringHttpAgent({ keepAlive: true }),
    https: new RequestFilteringHttpsAgent({ keepAlive: true }),
  },
  local: { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) },
} as const;

/**
 * Checks, in strict mode, that a webhook host resolves and that every address it resolves to
 * is public: one private address among public ones would let a tenant aim some attempts inside
 * our network. Throws WebhookAddressRefused otherwise. Local mode sends anywhere and checks nothing.
 */
export async function resolveWebhookHost(
  url: URL,
  mode: AddressMode,
  lookup: LookupAll = systemLookupAll,
): Promise<void> {
  if (mode === 'local') return;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) !== 0) {
    if (!isPublicAddress(host))
      throw new WebhookAddressRefused('The URL points to a private, local or reserved address.');
    return;
  }
  const addresses = await lookup(host).catch(() => []);
  if (addresses.length === 0) throw new WebhookAddressRefused('The host name does not resolve to any address.');
  if (!addresses.every(({ address }) => isPublicAddress(address))) {
    throw new WebhookAddressRefused('The host name resolves to a private, local or reserved address.');
  }
}

/**
 * POSTs a webhook once and says how it went; network failures are results, not exceptions.
 * Redirects are never followed (a 3xx is a failure: following one would send the event to a
 * URL nobody registered), and the answer's body is read up to 4 KiB and dropped. The outcome is
 * decided by the status line: a 2xx whose body then stalls still counts as delivered.
 * Rejects only for a request that could never be sent (not an http(s) URL, invalid headers).
 */
export async function postWebhook(request: WebhookRequest): Promise<WebhookAttemptResult> {
  const url = new URL(request.url);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError('a webhook URL is http or https');
  const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const started = performance.now();
  // An address literal is connected to without a lookup, so it is judged here.
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (request.mode === 'strict' && isIP(literal) !== 0 && !isPublicAddress(literal)) {
    return { delivered: false, failure: 'address_refused', durationMs: Math.round(performance.now() - started) };
  }
  const first = await sendOnce(request, url, timeoutMs, started);
  // A kept-alive connection the endpoint (or a frozen Lambda sandbox) had dropped fails before
  // any answer: the request never reached the endpoint, so it goes once more on a new connection.
  if (!first.staleConnection) return first.result;
  return (await sendOnce(request, url, timeoutMs - (performance.now() - started), started)).result;
}

/** One POST; `staleConnection` when it failed on a reused connection before any answer. */
function sendOnce(
  request: WebhookRequest,
  url: URL,
  timeoutMs: number,
  started: number,
): Promise<{ result: WebhookAttemptResult; staleConnection: boolean }> {
  const transport = url.protocol === 'https:' ? https : http;
  const agent = agents[request.mode][url.protocol === 'https:' ? 'https' : 'http'];
  const lookup = request.lookup ? callbackLookup(request.lookup) : undefined;

  return new Promise((resolve) => {
    let statusCode: number | undefined;
    let settled = false;
    const timedOut = new Error('webhook attempt timed out');
    const settle = (outcome: Omit<WebhookAttemptResult, 'durationMs'>, staleConnection = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ result: { ...outcome, durationMs: Math.round(performance.now() - started) }, staleConnection });
    };
    const settleByStatus = () => settle(outcomeOfStatus(statusCode!));

    const outgoing = transport.request(url, {
      method: 'POST',
      agent,
      headers: { ...request.headers, 'Content-Length': String(Buffer.byteLength(request.body, 'utf8')) },
      ...(request.mode === 'strict'
        ? { lookup: publicAddressesOnly(lookup ?? systemLookup) }
        : lookup
          ? { lookup }
          : {}),
    });
    const timer = setTimeout(() => outgoing.destroy(timedOut), Math.max(0, timeoutMs));

    outgoing.on('response', (response) => {
      statusCode = response.statusCode ?? 0;
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > MAX_RESPONSE_BYTES) response.destroy();
      });
      response.on('end', settleByStatus);
      response.on('close', settleByStatus);
      response.on('error', settleByStatus);
    });
    outgoing.on('error', (error) => {
      if (statusCode !== undefined) return settleByStatus();
      const stale = outgoing.reusedSocket && (error as NodeJS.ErrnoException).code === 'ECONNRESET';
      settle(
        {
          delivered: false,
          failure: error === timedOut ? 'timeout' : isAddressRefusal(error) ? 'address_refused' : 'connection_failed',
        },
        stale,
      );
    });
    outgoing.end(request.body, 'utf8');
  });
}

function outcomeOfStatus(statusCode: number): Omit<WebhookAttemptResult, 'durationMs'> {
  if (statusCode >= 200 && statusCode < 300) return { delivered: true, statusCode };
  return { delivered: false, statusCode, failure: statusCode >= 300 && statusCode < 400 ? 'redirect' : 'http_status' };
}

/**
 * request-filtering-agent refuses with a plain Error whose message says "… is not allowed"
 * (it sets no code); Node's own network errors all carry a code (ECONNREFUSED, ENOTFOUND, …).
 */
function isAddressRefusal(error: Error): boolean {
  if (error instanceof WebhookAddressRefused) return true;
  return !('code' in error) && /^DNS lookup .* is not allowed\./.test(error.message);
}

/**
 * A lookup that answers only when every address it found is public, as isPublicAddress judges
 * (request-filtering-agent's own check lets IPv4-compatible addresses such as ::7f00:1 through).
 */
function publicAddressesOnly(lookup: LookupFunction): LookupFunction {
  return (hostname, options, callback) =>
    lookup(hostname, options, (error, address, family) => {
      if (error) return callback(error, address, family);
      const found = typeof address === 'string' ? [address] : address.map((entry) => entry.address);
      if (found.every((each) => isPublicAddress(each))) return callback(null, address, family);
      callback(new WebhookAddressRefused('The host name resolves to a private, local or reserved address.'), '');
    });
}

/** A LookupAll in the shape net.connect calls its `lookup` with (one address, or all of them). */
function callbackLookup(lookupAll: LookupAll): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
    lookupAll(hostname).then(
      (found) => {
        const addresses = found.filter((entry) => family === 0 || entry.family === family);
        const first = addresses[0];
        if (!first) return callback(Object.assign(new Error('no address found'), { code: 'ENOTFOUND' }), '');
        if (options.all)
          callback(
            null,
            addresses.map(({ address, family }) => ({ address, family })),
          );
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}
