import {
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  createServer,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type LookupAll,
  WebhookAddressRefused,
  postWebhook,
  resolveWebhookHost,
} from '#lib/webhooks/adapters/webhook-http';

/**
 * One webhook POST over real sockets (lib/webhooks/adapters/webhook-http.ts): receivers are HTTP servers
 * on 127.0.0.1, which strict mode must refuse before a byte reaches them, and local mode allows.
 */

interface ReceivedRequest {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingHttpHeaders;
  body: string;
}

interface TestServer {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** TCP connections accepted, whether or not a request came over them. */
  connections: number;
  close(): Promise<void>;
}

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** An HTTP server on 127.0.0.1 that records what reaches it and answers with `answer` (never, if it does nothing). */
async function startServer(answer: (request: IncomingMessage, response: ServerResponse) => void): Promise<TestServer> {
  const requests: ReceivedRequest[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      answer(request, response);
    });
  });
  const testServer = { requests, connections: 0 } as TestServer;
  server.on('connection', () => {
    testServer.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  Object.assign(testServer, {
    port,
    url: `http://127.0.0.1:${port}/hooks/groupshoot`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  servers.push(testServer);
  return testServer;
}

const BODY = JSON.stringify({
  id: 'evt_01KDX3Q1Z0000000000000000',
  type: 'order.paid',
  data: { orderId: 'ord_1', note: 'Zoë' },
});
const HEADERS = {
  'Content-Type': 'application/json',
  'User-Agent': 'groupshoot-webhooks/1',
  'Groupshoot-Signature': 't=1,v1=00',
};

/** Name resolution that knows only `names`, as tests give postWebhook and resolveWebhookHost. */
function lookupOf(names: Record<string, string[]>): LookupAll & jest.Mock {
  return jest.fn(async (hostname: string) => {
    const addresses = names[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  });
}

describe('postWebhook in local mode', () => {
  it('POSTs the body and headers, with Content-Length, and counts a 200 as delivered', async () => {
    // Prepare
    const receiver = await startServer((_request, response) => response.writeHead(200).end('thanks'));

    // Act
    const result = await postWebhook({ url: receiver.url, body: BODY, headers: HEADERS, mode: 'local' });

    // Assess
    expect(result).toEqual({ delivered: true, statusCode: 200, durationMs: expect.any(Number) });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(receiver.requests).toEqual([
      {
        method: 'POST',
        url: '/hooks/groupshoot',
        headers: expect.objectContaining({
          'content-type': 'application/json',
          'user-agent': 'groupshoot-webhooks/1',
          'groupshoot-signature': 't=1,v1=00',
          'content-length': String(Buffer.byteLength(BODY)),
        }),
        body: BODY,
      },
    ]);
  });

  it.each([201, 202, 204])('counts a %i as delivered', async (status) => {
    const receiver = await startServer((_request, response) => response.writeHead(status).end());
    await expect(postWebhook({ url: receiver.url, body: BODY, headers: HEADERS, mode: 'local' })).resolves.toEqual({
      delivered: true,
      statusCode: status,
      durationMs: expect.any(Number),
    });
  });

  it.each([400, 404, 410, 429, 500, 503])('counts a %i as failure http_status', async (status) => {
    const receiver = await startServer((_request, response) => response.writeHead(status).end('{"error":"nope"}'));
    await expect(postWebhook({ url: receiver.url, body: BODY, headers: HEADERS, mode: 'local' })).resolves.toEqual({
      delivered: false,
      statusCode: status,
      failure: 'http_status',
      durationMs: expect.any(Number),
    });
  });

  it('follows no redirect: a 302 is failure redirect, and its target gets no request', async () => {
    // Prepare
    const target = await startServer((_request, response) => response.writeHead(200).end());
    const redirecting = await startServer((_request, response) =>
      response.writeHead(302, { Location: target.url }).end(),
    );

    // Act
    const result = await postWebhook({ url: redirecting.url, body: BODY, headers: HEADERS, mode: 'local' });

    // Assess
    expect(result).toEqual({ delivered: false, statusCode: 302, failure: 'redirect', durationMs: expect.any(Number) });
    expect(redirecting.requests).toHaveLength(1);
    expect(target.connections).toBe(0);
    expect(target.requests).toEqual([]);
  });

  it.each([301, 307, 308])('counts a %i as failure redirect', async (status) => {
    const receiver = await startServer((_request, response) =>
      response.writeHead(status, { Location: 'https://elsewhere.example/' }).end(),
    );
    const result = await postWebhook({ url: receiver.url, body: BODY, headers: HEADERS, mode: 'local' });
    expect(result).toEqual({
      delivered: false,
      statusCode: status,
      failure: 'redirect',
      durationMs: expect.any(Number),
    });
  });

  it('gives up on a receiver that never answers after timeoutMs, with failure timeout', async () => {
    // Prepare
    const silent = await startServer(() => undefined);

    // Act
    const result = await postWebhook({ url: silent.url, body: BODY, headers: HEADERS, mode: 'local', timeoutMs: 300 });

    // Assess
    expect(result).toEqual({ delivered: false, failure: 'timeout', durationMs: expect.any(Number) });
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
    expect(result.durationMs).toBeLessThan(2000);
    expect(silent.requests).toHaveLength(1);
  });

  it('reads no more than 4 KiB of an answer: a 200 with an endless body is delivered, long before the timeout', async () => {
    // Prepare
    const chatty = await startServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/plain' });
      response.write('x'.repeat(64 * 1024)); // and never ends
    });

    // Act
    const result = await postWebhook({ url: chatty.url, body: BODY, headers: HEADERS, mode: 'local', timeoutMs: 5000 });

    // Assess
    expect(result).toEqual({ delivered: true, statusCode: 200, durationMs: expect.any(Number) });
    expect(result.durationMs).toBeLessThan(2000);
  });

  it('decides by the status line: a 200 whose body stalls is delivered when the time is up', async () => {
    const stalling = await startServer((_request, response) => {
      response.writeHead(200, { 'Content-Length': '100' });
      response.write('partial');
    });
    const result = await postWebhook({
      url: stalling.url,
      body: BODY,
      headers: HEADERS,
      mode: 'local',
      timeoutMs: 300,
    });
    expect(result).toEqual({ delivered: true, statusCode: 200, durationMs: expect.any(Number) });
  });

  it('reports a port nobody listens on as connection_failed', async () => {
    // Prepare: a port that was just free
    const closed = await startServer(() => undefined);
    await closed.close();
    servers.splice(servers.indexOf(closed), 1);

    // Act
    const result = await postWebhook({ url: closed.url, body: BODY, headers: HEADERS, mode: 'local', timeoutMs: 2000 });

    // Assess
    expect(result).toEqual({ delivered: false, failure: 'connection_failed', durationMs: expect.any(Number) });
  });

  it('reports a name that does not resolve as connection_failed', async () => {
    const result = await postWebhook({
      url: 'http://nowhere.test:9/hook',
      body: BODY,
      headers: HEADERS,
      mode: 'local',
      lookup: lookupOf({}),
    });
    expect(result).toEqual({ delivered: false, failure: 'connection_failed', durationMs: expect.any(Number) });
  });

  it('resolves names with the lookup it is given, and reuses the connection for the next attempt', async () => {
    // Prepare
    const receiver = await startServer((_request, response) => response.writeHead(204).end());
    const lookup = lookupOf({ 'receiver.test': ['127.0.0.1'] });
    const url = `http://receiver.test:${receiver.port}/hook`;

    // Act
    const first = await postWebhook({ url, body: BODY, headers: HEADERS, mode: 'local', lookup });
    const second = await postWebhook({ url, body: BODY, headers: HEADERS, mode: 'local', lookup });

    // Assess
    expect([first.delivered, second.delivered]).toEqual([true, true]);
    expect(lookup).toHaveBeenCalledWith('receiver.test');
    expect(receiver.requests.map((request) => request.headers.host)).toEqual([
      `receiver.test:${receiver.port}`,
      `receiver.test:${receiver.port}`,
    ]);
    expect(receiver.connections).toBe(1);
  });

  it('sends once more on a new connection when a kept-alive one turns out dropped', async () => {
    // Prepare: the receiver drops a connection the moment a second request comes over it.
    const served = new WeakSet<object>();
    const receiver = await startServer((request, response) => {
      if (served.has(request.socket)) return request.socket.destroy();
      served.add(request.socket);
      response.writeHead(200).end();
    });
    const lookup = lookupOf({ 'dropper.test': ['127.0.0.1'] });
    const url = `http://dropper.test:${receiver.port}/hook`;

    // Act
    const first = await postWebhook({ url, body: BODY, headers: HEADERS, mode: 'local', lookup });
    const second = await postWebhook({ url, body: BODY, headers: HEADERS, mode: 'local', lookup });

    // Assess: the second went over the kept connection, was cut, and went again on a new one.
    expect([first.delivered, second.delivered]).toEqual([true, true]);
    expect(receiver.requests).toHaveLength(3);
    expect(receiver.connections).toBe(2);
  });

  it('rejects what could never be sent, rather than calling it a network failure', async () => {
    await expect(
      postWebhook({ url: 'ftp://127.0.0.1/hook', body: BODY, headers: HEADERS, mode: 'local' }),
    ).rejects.toThrow(TypeError);
  });
});

describe('postWebhook in strict mode', () => {
  it('refuses http://127.0.0.1 with address_refused, before a byte reaches the server', async () => {
    // Prepare
    const receiver = await startServer((_request, response) => response.writeHead(200).end());

    // Act
    const result = await postWebhook({ url: receiver.url, body: BODY, headers: HEADERS, mode: 'strict' });

    // Assess
    expect(result).toEqual({ delivered: false, failure: 'address_refused', durationMs: expect.any(Number) });
    expect(receiver.connections).toBe(0);
    expect(receiver.requests).toEqual([]);
  });

  it('refuses a name that resolves to a loopback address when connecting (DNS rebinding)', async () => {
    // Prepare: the name passed the subscription check once; now it answers 127.0.0.1
    const receiver = await startServer((_request, response) => response.writeHead(200).end());
    const lookup = lookupOf({ 'rebind.test': ['127.0.0.1'] });

    // Act
    const result = await postWebhook({
      url: `http://rebind.test:${receiver.port}/hook`,
      body: BODY,
      headers: HEADERS,
      mode: 'strict',
      lookup,
    });

    // Assess
    expect(result).toEqual({ delivered: false, failure: 'address_refused', durationMs: expect.any(Number) });
    expect(lookup).toHaveBeenCalledWith('rebind.test');
    expect(receiver.connections).toBe(0);
    expect(receiver.requests).toEqual([]);
  });

  it.each([
    ['the metadata service', '169.254.169.254'],
    ['a private address', '10.0.0.8'],
    ['an IPv4-mapped loopback address', '::ffff:127.0.0.1'],
    ['the IPv6 loopback address', '::1'],
    ['an IPv4-compatible loopback address', '::7f00:1'],
    ['an IPv4-compatible loopback address, as the system resolver writes it', '::127.0.0.1'],
    ['a NAT64 address of the metadata service', '64:ff9b::a9fe:a9fe'],
  ])('refuses a name that resolves to %s', async (_case, address) => {
    const lookup = lookupOf({ 'inside.test': [address] });
    const result = await postWebhook({
      url: 'https://inside.test/hook',
      body: BODY,
      headers: HEADERS,
      mode: 'strict',
      lookup,
      timeoutMs: 2000,
    });
    expect(result).toEqual({ delivered: false, failure: 'address_refused', durationMs: expect.any(Number) });
  });

  it.each([
    'https://169.254.169.254/latest/meta-data/',
    'https://[::1]/hook',
    'http://[::ffff:7f00:1]/hook',
    'https://[::127.0.0.1]/hook',
    'https://10.1.2.3/hook',
  ])('refuses the address literal in %s', async (url) => {
    const result = await postWebhook({ url, body: BODY, headers: HEADERS, mode: 'strict', timeoutMs: 2000 });
    expect(result).toEqual({ delivered: false, failure: 'address_refused', durationMs: expect.any(Number) });
  });
});

describe('resolveWebhookHost', () => {
  const url = new URL('https://hooks.example.test/groupshoot');

  /** The reason resolveWebhookHost refused with, or 'accepted'. */
  async function outcomeOf(promise: Promise<void>): Promise<string> {
    try {
      await promise;
    } catch (error) {
      if (error instanceof WebhookAddressRefused) return error.reason;
      throw error;
    }
    return 'accepted';
  }

  it.each([
    ['one public IPv4 address', ['8.8.8.8']],
    ['public IPv4 and IPv6 addresses', ['8.8.8.8', '2606:4700::1111']],
  ])('accepts a host with %s', async (_case, addresses) => {
    const lookup = lookupOf({ 'hooks.example.test': addresses });
    await expect(outcomeOf(resolveWebhookHost(url, 'strict', lookup))).resolves.toBe('accepted');
    expect(lookup).toHaveBeenCalledWith('hooks.example.test');
  });

  it.each([
    ['a loopback address', ['127.0.0.1']],
    ['the metadata service', ['169.254.169.254']],
    ['an IPv6 unique local address', ['fd00::5']],
    ['an IPv4-mapped private address', ['::ffff:192.168.1.1']],
    ['an IPv4-compatible loopback address', ['::7f00:1']],
    ['a site-local address', ['fec0::1']],
    ['public and private addresses', ['8.8.8.8', '10.0.0.1']],
    ['a private address after public IPv6', ['2606:4700::1111', '8.8.4.4', '::1']],
  ])('refuses a host with %s', async (_case, addresses) => {
    const lookup = lookupOf({ 'hooks.example.test': addresses });
    await expect(outcomeOf(resolveWebhookHost(url, 'strict', lookup))).resolves.toBe(
      'The host name resolves to a private, local or reserved address.',
    );
  });

  it('refuses a host that does not resolve, or resolves to nothing', async () => {
    await expect(outcomeOf(resolveWebhookHost(url, 'strict', lookupOf({})))).resolves.toBe(
      'The host name does not resolve to any address.',
    );
    await expect(outcomeOf(resolveWebhookHost(url, 'strict', lookupOf({ 'hooks.example.test': [] })))).resolves.toBe(
      'The host name does not resolve to any address.',
    );
  });

  it('judges an address literal without asking DNS', async () => {
    const lookup = lookupOf({});
    await expect(
      outcomeOf(resolveWebhookHost(new URL('https://[::ffff:a9fe:a9fe]/hook'), 'strict', lookup)),
    ).resolves.toBe('The URL points to a private, local or reserved address.');
    await expect(outcomeOf(resolveWebhookHost(new URL('https://8.8.8.8/hook'), 'strict', lookup))).resolves.toBe(
      'accepted',
    );
    expect(lookup).not.toHaveBeenCalled();
  });

  it('checks nothing in local mode', async () => {
    const lookup = lookupOf({ 'hooks.example.test': ['127.0.0.1'] });
    await expect(outcomeOf(resolveWebhookHost(url, 'local', lookup))).resolves.toBe('accepted');
    await expect(outcomeOf(resolveWebhookHost(new URL('http://localhost:3000/hook'), 'local', lookup))).resolves.toBe(
      'accepted',
    );
  });
});
