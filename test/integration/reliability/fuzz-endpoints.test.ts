import { type HrExportQueue, useHrExportQueue } from '#lib/hr-exports/adapters/hr-export-queue';
import { updateGallerySettings } from '#lib/galleries/store/galleries';
import { createHmac, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { handler as ingestPhoto } from '../../../functions/photos/sorting/ingest-photo';
import { CHECKIN_ACTIONS } from '#lib/http/group-shoot-actions';
import { resetClock, setClock } from '#lib/platform/clock';
import { createApiKey, setApiKeyStatus } from '#lib/tenants/store/api-keys';
import { photoObjectKey } from '#lib/platform/media-keys';
import { ERROR_CATALOG } from '#lib/http/errors';
import { unsubscribeUrlOf } from '#lib/photos/links/unsubscribe-links';
import { type Route, pathsOf, routes, routesAtPath } from '#lib/http/routes';
import { type ApiAnswer, useLocalApi } from '../../support/local-api';
import { type CheckinStudio, createCheckinStudio } from '../../support/checkin-gallery';
import { type TestTenant, createTestTenant } from '../../support/factories';
import { makeJpeg, objectCreatedEvent, uploadObject } from '../../support/media';

/**
 * Fuzzing every endpoint (issue 9): random and malformed path parameters, query strings,
 * headers, bodies, methods, sizes and unicode never give a 5xx, always carry X-Request-Id, and
 * every error is exactly the error shape {ok:false, error, message, requestId} (plus the
 * documented field/key/parameter member), with the catalogue's status for its code and no stack
 * trace. Every answer is also held against docs/openapi.json by useLocalApi.
 *
 * The tests are generated from the route table (`routes`, `pathsOf`): every route on its
 * primary path and alias, the OPTIONS preflight routes, random methods on every path and paths
 * no route has. A new route is fuzzed without editing this file.
 *
 * Rate limit: a standing clock moved 61 seconds before every request, so each request of a key
 * finds a full bucket and fuzzing reaches the endpoints instead of answering 429.
 */

const api = useLocalApi();

/**
 * Runs per route and path (primary path and alias each), twice as many for routes that take a
 * body; FUZZ_RUNS=1000 fuzzes longer.
 */
const RUNS_PER_ROUTE_PATH = Number(process.env.FUZZ_RUNS ?? 120);
const RUNS_RANDOM_METHODS = 2 * RUNS_PER_ROUTE_PATH;
const RUNS_UNMATCHED_PATHS = RUNS_PER_ROUTE_PATH;
const RUNS_SIGNED_NON_EVENTS = RUNS_PER_ROUTE_PATH;
const PROPERTY_TIMEOUT_MS = 240_000;
/**
 * fast-check's own limits: a request that takes longer than `timeout` fails its run (a hang is
 * a bug), and a property still running after `interruptAfterTimeLimit` (a machine under heavy
 * load, or a long shrink) stops there and reports what it found, before Jest's timeout would
 * swallow the counterexample.
 */
const FC_LIMITS = { timeout: 30_000, interruptAfterTimeLimit: 150_000 };

let clockNow = Date.now();

const WEBHOOK_SECRET = `whsec_fuzz${randomBytes(16).toString('hex')}`;
let savedWebhookSecret: string | undefined;

beforeAll(() => {
  setClock(() => clockNow);
  savedWebhookSecret = process.env.STRIPE_WEBHOOK_SECRET;
  process.env.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET;
});
afterAll(() => {
  resetClock();
  if (savedWebhookSecret === undefined) delete process.env.STRIPE_WEBHOOK_SECRET;
  else process.env.STRIPE_WEBHOOK_SECRET = savedWebhookSecret;
});

// ---------------------------------------------------------------------------------------------
// The world the fuzzer aims at: valid values, other tenants' values, refused keys.

interface World {
  studio: CheckinStudio;
  /** Another tenant: its slug, key, galleries and persons are foreign to the studio. */
  other: TestTenant;
  /** A tenant below the Creator plan. */
  lowPlan: TestTenant;
  disabledKey: string;
  revokedKey: string;
  /** Persons of the studio's check-in gallery; the first has a photo. */
  personIds: string[];
  employeeIds: string[];
  foreignPersonId: string;
  /** A real nextCursor of the studio gallery's person listing. */
  cursor: string;
  /** HR exports of the studio's gallery (it asks for the HR consent here). */
  exportIds: string[];
  /** Unsubscribe link tokens of the studio's persons (the link routes' {link}). */
  unsubscribeLinks: string[];
}

let world: World;
let replacedExportQueue: HrExportQueue | undefined;

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'] as const;
type Method = (typeof METHODS)[number];

interface FuzzRequest {
  method: Method;
  /** Path below the stage (`/v1`) with its query string; sent as it is, fetch normalises it. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /**
   * Webhook requests: 'event' when Stripe-Signature is the right signature of this exact body
   * and the body is a Stripe event; 'other' when it is right for a body of another shape.
   */
  signed?: 'event' | 'other' | false;
}

/** Every request moves the clock on by a minute and a second: each key's bucket is full again. */
async function send(request: FuzzRequest): Promise<ApiAnswer> {
  clockNow += 61_000;
  if (request.method === 'HEAD') {
    // HEAD answers have no body, which the OpenAPI check of api.call cannot read: plain fetch.
    const response = await fetch(`${api.url}${request.path}`, { method: 'HEAD', headers: request.headers });
    await response.arrayBuffer();
    return { status: response.status, headers: response.headers, body: '' };
  }
  if (Buffer.byteLength(request.body ?? '', 'utf8') > GATEWAY_PAYLOAD_LIMIT) {
    // API Gateway refuses it before routing, whatever the path: its answer belongs to no operation
    // the OpenAPI check of api.call could look up (a path no route has, a method without a body).
    // Plain fetch; expectGatewayRefusal checks the exact answer.
    const response = await fetch(`${api.url}${request.path}`, {
      method: request.method,
      headers: { 'Content-Type': 'application/json', ...request.headers },
      body: request.body,
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: expectGatewayRefusal shows the text
    }
    return { status: response.status, headers: response.headers, body };
  }
  return api.call(request.path, { method: request.method, headers: request.headers, body: request.body });
}

// ---------------------------------------------------------------------------------------------
// The properties every answer has.

/**
 * API Gateway HTTP API's payload limit: 10 MB. Above it the gateway answers by itself, before
 * any function runs (the local API plays it): 413 with its own body, not the error shape.
 */
const GATEWAY_PAYLOAD_LIMIT = 10 * 1024 * 1024;

/** API Gateway's own refusal of a body over its limit: no error code, no requestId, no X-Request-Id. */
function expectGatewayRefusal(answer: ApiAnswer): void {
  expect({
    status: answer.status,
    body: answer.body,
    contentType: answer.headers.get('content-type'),
    requestId: answer.headers.get('x-request-id'),
  }).toEqual({
    status: 413,
    body: { message: 'Request Entity Too Large' },
    contentType: 'application/json',
    requestId: null,
  });
}

const ERROR_MEMBERS = new Set(['ok', 'error', 'message', 'requestId', 'field', 'key', 'parameter']);

/** Stack frames in any body. */
const STACK_FRAME = /\n\s+at \S|\bat (?:async )?[\w$.<>[\]]+ \(|\bat \S+\.[cm]?[jt]s:\d+/;
/** What must never be in an error body: frames, source positions, thrown errors' texts. */
const INTERNAL_TEXT = [STACK_FRAME, /\.[cm]?[jt]s:\d+/, /\b\w*Error:/, /node_modules/, /\bat Object\./, /\/work\//];

function presentedKey(headers: Record<string, string>): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.Authorization?.trim() ?? '')?.[1];
  return bearer || headers['X-Api-Key']?.trim() || undefined;
}

/** A path as the router reads it, every escape decoded; as it is where an escape is broken. */
function safelyDecoded(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function isWellFormed(text: string): boolean {
  return Buffer.from(text, 'utf8').toString('utf8') === text;
}

/** Where the request lands, as API Gateway routes it: the matched route, or the path's routes. */
function routingOf(request: FuzzRequest) {
  const pathname = new URL(`${api.url}${request.path}`).pathname;
  const withinStage = pathname === '/v1' ? '/' : pathname.startsWith('/v1/') ? pathname.slice(3) : undefined;
  const atPath = withinStage === undefined ? [] : routesAtPath(withinStage);
  const route = atPath.find((match) => match.route.method === request.method)?.route;
  return { withinStage, atPath, route };
}

function expectErrorShape(answer: ApiAnswer, requestId: string | null): void {
  const body = answer.body;
  expect(typeof body === 'object' && body !== null && !Array.isArray(body)).toBe(true);
  expect(Object.keys(body).filter((member) => !ERROR_MEMBERS.has(member))).toEqual([]);
  expect(body).toEqual(
    expect.objectContaining({ ok: false, error: expect.any(String), message: expect.any(String), requestId }),
  );
  for (const member of ['field', 'key', 'parameter']) {
    if (member in body) expect(typeof body[member]).toBe('string');
  }
  expect({ error: body.error, status: ERROR_CATALOG[body.error as keyof typeof ERROR_CATALOG]?.status }).toEqual({
    error: body.error,
    status: answer.status,
  });
  const text = JSON.stringify(body);
  for (const pattern of INTERNAL_TEXT) expect(text).not.toMatch(pattern);
}

function expectSoundAnswer(request: FuzzRequest, answer: ApiAnswer): void {
  // API Gateway refuses bodies above its payload limit before routing, whatever the path, and
  // before any function: the only answer without X-Request-Id and the error shape.
  if (Buffer.byteLength(request.body ?? '', 'utf8') > GATEWAY_PAYLOAD_LIMIT) {
    expectGatewayRefusal(answer);
    return;
  }
  const requestId = answer.headers.get('x-request-id');
  expect(answer.status).toBeLessThan(500);
  expect(requestId).toMatch(/^\S+$/);
  if (request.method === 'HEAD') return; // no body to look at
  // The clock moves a minute per request: a 429 means the fuzzer stopped reaching the endpoints.
  expect(answer.status).not.toBe(429);
  const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
  expect(text).not.toMatch(STACK_FRAME);
  if (answer.status >= 400) expectErrorShape(answer, requestId);
  else if (answer.status === 204) expect(answer.body).toBe('');
  else if (answer.headers.get('content-type') === 'text/html; charset=utf-8')
    // A link route's page (the unsubscribe link's), for a GET or a browser's POST.
    expect([routingOf(request).route?.access, answer.body]).toEqual([
      'link',
      expect.stringMatching(/^<!doctype html>/),
    ]);
  else expect(answer.body).toEqual(expect.objectContaining({ ok: true, requestId }));

  // What the route table decides about the request.
  const { withinStage, atPath, route } = routingOf(request);
  if (withinStage !== undefined && atPath.length === 0) {
    expect([answer.status, answer.body.error]).toEqual([404, 'not_found']);
    return;
  }
  if (withinStage !== undefined && !route) {
    expect([answer.status, answer.body.error]).toEqual([405, 'method_not_allowed']);
    const allowed = [...new Set(atPath.map((match) => match.route.method))].sort().join(', ');
    expect(answer.headers.get('allow')).toBe(allowed);
    return;
  }
  if (!route) return;
  if (route.access === 'public') expect(answer.headers.get('access-control-allow-origin')).toBe('*');
  if (route.access === 'server' && answer.status < 400) {
    // Only a tenant's own active key on its own slug gets an answer: the studio's, or the other
    // tenant's when the fuzzer drew its slug, its key and a path of its own together, and then
    // never about a gallery of the studio.
    const caller = { slug: request.headers['X-Tenant-Slug']?.trim().toLowerCase(), key: presentedKey(request.headers) };
    expect([
      { slug: world.studio.slug, key: world.studio.apiKey },
      { slug: world.other.slug, key: world.other.apiKey },
    ]).toContainEqual(caller);
    if (caller.slug === world.other.slug) {
      const named = safelyDecoded(request.path).toLowerCase();
      expect(
        [world.studio.token, world.studio.ordinaryToken].filter((token) => named.includes(token.toLowerCase())),
      ).toEqual([]);
    }
    expect(answer.headers.get('x-ratelimit-limit')).toBe('60');
  }
  if (route.access === 'webhook') {
    if (request.signed === 'event') expect(answer.status).toBe(200);
    else if (!request.signed) expect([answer.status, answer.body.error]).toEqual([400, 'invalid_signature']);
  }
}

/** Counts of answers per test, to see that the fuzzer reaches the endpoints and not only refusals. */
function tally() {
  const counts = new Map<string, number>();
  return {
    add(answer: ApiAnswer) {
      const label =
        answer.status >= 400 ? `${answer.status} ${answer.body?.error ?? ''}`.trim() : String(answer.status);
      counts.set(label, (counts.get(label) ?? 0) + 1);
    },
    successes: () =>
      [...counts].filter(([label]) => Number(label.slice(0, 3)) < 400).reduce((sum, [, count]) => sum + count, 0),
    toString: () =>
      [...counts]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([label, count]) => `${label}: ${count}`)
        .join(', '),
  };
}

function report(title: string, counts: ReturnType<typeof tally>): void {
  if (process.env.FUZZ_SUMMARY) process.stdout.write(`${title}\n  ${counts.toString()}\n`);
}

// ---------------------------------------------------------------------------------------------
// Arbitraries.

const hex = (byte: number) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
const percentEncodeAll = (text: string) => [...Buffer.from(text, 'utf8')].map(hex).join('');
const base64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
const repeated = (text: string, min: number, max: number) =>
  fc.integer({ min, max }).map((count) => text.repeat(count));

/**
 * A raw request body. fast-check prints it in counterexamples by its label, so a body nested
 * 10,000 levels deep or megabytes long reads as a short description instead of its full text.
 */
class RawBody {
  constructor(
    readonly text: string,
    readonly label?: string,
  ) {}

  [fc.toStringMethod](): string {
    if (this.label) return this.label;
    if (this.text.length <= 2000) return JSON.stringify(this.text);
    return `${JSON.stringify(this.text.slice(0, 200))} + …(${this.text.length} characters in all)… + ${JSON.stringify(this.text.slice(-100))}`;
  }
}

const rawJson = (value: unknown) => new RawBody(JSON.stringify(value));

/** Header values fetch can send: printable ASCII (fetch trims surrounding spaces itself). */
const printable = (maxLength: number) =>
  fc.string({ unit: 'grapheme-ascii', maxLength }).filter((value) => /^[\x20-\x7e]*$/.test(value));

/** Values of every JSON type, unicode (lone surrogates included) and nested. */
const anyJson = fc.oneof(
  fc.jsonValue({ maxDepth: 3, stringUnit: 'grapheme' }),
  fc.jsonValue({ maxDepth: 2, stringUnit: 'binary' }),
);
const nonString = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 2 }),
);

/** Strings a field may get: unicode, blanks, boundary and huge lengths, addresses, other types. */
const fieldValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '',
      '   ',
      '\t\n',
      '\u0000',
      '\u200b',
      'x'.repeat(100),
      'x'.repeat(101),
      'x'.repeat(200),
      'x'.repeat(201),
      'x'.repeat(1000),
      'x'.repeat(1001),
      'ada@example.com',
      ' ada@example.com ',
      '@',
      'a@',
      '@b',
      'a@b',
      'a b@c.de',
      '"quoted"@example.com',
      'zoë@bücher.de',
      `${'x'.repeat(190)}@example.com`,
      '<script>alert(1)</script>',
      "'; DROP TABLE x; --",
      '{{7*7}}',
      '${process.exit()}',
      '__proto__',
      'E-1',
    ),
  },
  { weight: 1, arbitrary: repeated('y', 1001, 60_000) },
  { weight: 1, arbitrary: fc.emailAddress() },
  { weight: 2, arbitrary: nonString },
);

/** JSON nested this deep, written as text: JSON.stringify itself cannot write such values. */
const deeplyNested = (depth: number) => '{"a":'.repeat(depth) + '[1]' + '}'.repeat(depth);
const nestedLabel = (depth: number) => `'{"a":' ×${depth} + '[1]' + '}' ×${depth}`;
const nestingDepth = fc.oneof(
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 64 }) },
  { weight: 2, arbitrary: fc.integer({ min: 1000, max: 200_000 }) },
);

/** Bodies of no route in particular: every JSON type, broken JSON, non-JSON, deep nesting, sizes. */
const genericBody: fc.Arbitrary<RawBody> = fc.oneof(
  { weight: 4, arbitrary: anyJson.map(rawJson) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 300 }).map((text) => new RawBody(text)) },
  {
    weight: 3,
    arbitrary: fc
      .constantFrom(
        '',
        ' ',
        '{',
        '}',
        '{"a":}',
        "{'a':1}",
        '{"a":1,}',
        '{"a":1}x',
        '\uFEFF{}',
        'null',
        '[]',
        '"x"',
        '1',
        'true',
        'NaN',
        '{"a":1}{"b":2}',
        '{"__proto__":{"action":"submitCheckin"}}',
        '{"constructor":{"prototype":{"polluted":1}}}',
        '{"persons":{"length":3}}',
        '{"a":"\\ud800"}',
        '{"a":"\\u0000"}',
        '{"a":1e999}',
        '{"a":-0}',
        '{"a":123456789012345678901234567890}',
        'action=submitCheckin&token=x',
        '<xml/>',
        '\u0000\u0001',
        '{"persons":[',
      )
      .map((text) => new RawBody(text)),
  },
  // Deep nesting: objects and arrays many levels down.
  { weight: 2, arbitrary: nestingDepth.map((depth) => new RawBody(deeplyNested(depth), nestedLabel(depth))) },
  {
    weight: 1,
    arbitrary: nestingDepth.map(
      (depth) => new RawBody('['.repeat(depth) + ']'.repeat(depth), `'[' ×${depth} + ']' ×${depth}`),
    ),
  },
  // Around the 5 MiB body limit (rare: each is megabytes on the wire).
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(4 * 1024 * 1024, 5 * 1024 * 1024 - 1, 5 * 1024 * 1024, 5 * 1024 * 1024 + 1, 6 * 1024 * 1024)
      .map((size) => new RawBody(JSON.stringify({ pad: 'x'.repeat(size - 10) }), `{"pad":"x…"} of ${size} bytes`)),
  },
);

/** A path segment no route expects: unicode, percent-encoded garbage, traversal, empty, long. */
const garbageSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }).map((text) => encodeURIComponent(text)) },
  // Raw text: fetch percent-encodes it; '/' splits it and dot segments resolve.
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }).map((text) => text.replace(/[?#]/g, '')) },
  { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 24 }).map((bytes) => [...bytes].map(hex).join('')) },
  { weight: 1, arbitrary: repeated('a', 129, 4000) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '',
      '.',
      '..',
      '..%2F',
      '..%2F..%2Fetc%2Fpasswd',
      '%2e%2e',
      '%2e%2e%2f',
      '%2E%2E%2F%2E%2E%2F',
      '..%5c..%5c',
      '....//',
      '%',
      '%zz',
      '%E0%A4%A',
      '%00',
      '%C0%AE%C0%AE',
      '%ff',
      '%F0%9F%98',
      '%20',
      '+',
      '*',
      '\\',
      '~',
      ' ',
      ';',
      'a;b=c',
      '%3F',
      '%23',
      '%2F',
      'null',
      'undefined',
      '__proto__',
      'constructor',
      'per_',
      '{token}',
      '{personId}',
      '%7Btoken%7D',
      'ÄÖÜ',
      '🙂',
    ),
  },
);

function arbitraries(w: World) {
  const { studio, other, lowPlan } = w;

  const token = fc.oneof(
    { weight: 10, arbitrary: fc.constant(studio.token) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        percentEncodeAll(studio.token), // the same token, every byte encoded: still the studio's gallery
        studio.ordinaryToken, // not a group shoot
        other.token, // another tenant's
        other.ordinaryToken,
        lowPlan.token,
        studio.token.toUpperCase(),
        `${studio.token}%20`,
        `${studio.token}x`,
        studio.token.slice(0, -1),
      ),
    },
    { weight: 3, arbitrary: garbageSegment },
  );
  const personId = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...w.personIds) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        w.foreignPersonId,
        w.personIds[0]!.toUpperCase(),
        percentEncodeAll(w.personIds[0]!),
        `${w.personIds[0]}%20`,
        w.personIds[0]!.slice(0, -1),
      ),
    },
    { weight: 1, arbitrary: fc.stringMatching(/^per_[0-9a-z]{26}$/) },
    { weight: 3, arbitrary: garbageSegment },
  );
  /** A value for each path parameter; parameters of future routes get every kind of value. */
  const exportId = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...w.exportIds) },
    { weight: 1, arbitrary: fc.stringMatching(/^hrx_[0-9a-z]{26}$/) },
    { weight: 3, arbitrary: garbageSegment },
  );
  const link = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...w.unsubscribeLinks) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        w.unsubscribeLinks[0]!.toUpperCase(),
        percentEncodeAll(w.unsubscribeLinks[0]!),
        `${w.unsubscribeLinks[0]}%20`,
        w.unsubscribeLinks[0]!.slice(0, -1),
        w.unsubscribeLinks[0]!.split('.').slice(2).join('.'),
      ),
    },
    { weight: 3, arbitrary: garbageSegment },
  );
  const pathParameter = (name: string): fc.Arbitrary<string> =>
    name === 'token'
      ? token
      : name === 'personId'
        ? personId
        : name === 'exportId'
          ? exportId
          : name === 'link'
            ? link
            : fc.oneof(token, personId, garbageSegment);

  /** The template with its parameters filled; URLs stay below Node's 16 KiB header limit. */
  const pathOf = (template: string): fc.Arbitrary<string> => {
    const names = [...template.matchAll(/\{(\w+)\}/g)].map(([, name]) => name!);
    return fc
      .tuple(...names.map((name) => pathParameter(name)))
      .map((values) => names.reduce((path, name, index) => path.replace(`{${name}}`, values[index]!), template));
  };

  const queryName = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom('limit', 'cursor', 'employeeId') },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        'status',
        'source',
        'sort',
        'page',
        'offset',
        'token',
        'personId',
        'LIMIT',
        'limit[]',
        'cursor[]',
        'employeeId[0]',
        '__proto__',
        'constructor',
        'toString',
        'hasOwnProperty',
        '',
      ),
    },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 10 }) },
  );
  const personCursorText = (id: string) => `p1:${id}`;
  const queryValue = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        '1',
        '2',
        '100',
        '500',
        '0',
        '-1',
        '501',
        '1000',
        '9999',
        '10000',
        '1e2',
        '1.5',
        ' 5',
        '5 ',
        '+5',
        '0x10',
        '007',
        '99999999999999999999',
        'NaN',
        'Infinity',
        '',
        'null',
        'true',
        '[]',
        '{}',
        '%',
        '%zz',
        'a,b',
        '1,2',
      ),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        w.cursor,
        `${w.cursor}x`,
        w.cursor.slice(0, -2),
        w.cursor.toUpperCase(),
        Buffer.from(personCursorText(w.personIds[0]!)).toString('base64'), // standard base64, padding included
        base64url(personCursorText(w.foreignPersonId)),
        base64url(`p2:${w.personIds[0]}`),
        base64url('p1:per_'),
        base64url(`p1:${w.personIds[0]}\u0000`),
        base64url(`p1:${w.personIds[0]!.toUpperCase()}`),
        base64url('p1:per_zzzzzzzzzzzzzzzzzzzzzzzzzz'),
        '====',
        '-_-_',
      ),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        ...w.employeeIds,
        ` ${w.employeeIds[0]} `,
        w.employeeIds[0]!.toLowerCase(),
        'x'.repeat(100),
        'x'.repeat(101),
        ' ',
      ),
    },
    { weight: 1, arbitrary: fc.base64String({ maxLength: 60 }) },
    { weight: 1, arbitrary: fc.stringMatching(/^p1:per_[0-9a-z]{26}$/).map(base64url) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
    { weight: 1, arbitrary: fc.integer().map(String) },
    { weight: 1, arbitrary: repeated('q', 101, 3000) },
  );
  const queryString = fc.oneof(
    { weight: 2, arbitrary: fc.constant('') },
    {
      weight: 4,
      arbitrary: fc
        .array(fc.tuple(queryName, queryValue), { maxLength: 5 })
        .map((pairs) => (pairs.length > 0 ? `?${new URLSearchParams(pairs).toString()}` : '')),
    },
    {
      weight: 2,
      arbitrary: fc
        .array(fc.tuple(queryName, queryValue), { minLength: 1, maxLength: 4 })
        .map((pairs) => `?${pairs.map(([name, value]) => `${name}=${value}`.replace(/#/g, '')).join('&')}`),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '?',
        '??',
        '?&&&',
        '?=',
        '?limit',
        '?limit=&limit=',
        '?limit=1&limit=2',
        '?cursor=%zz',
        '?employeeId=%E0%A4%A',
        '?%zz=%zz',
        '?a=b=c',
        '?limit=1;cursor=x',
        '?&limit=5&',
        '?limit=%00',
        '?employeeId=%00',
        '?cursor=%F0%9F%98',
      ),
    },
  );

  const validKey = studio.apiKey;
  const tenantSlug = fc.oneof(
    { weight: 10, arbitrary: fc.constant(studio.slug) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        studio.slug.toUpperCase(),
        `  ${studio.slug}  `,
        other.slug,
        lowPlan.slug,
        `${studio.slug}-x`,
      ),
    },
    { weight: 2, arbitrary: printable(70) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        '-',
        'a--b',
        '-a',
        'a-',
        'a'.repeat(63),
        'a'.repeat(64),
        'a.b',
        'a_b',
        '*',
        '%',
        '..',
      ),
    },
  );
  const apiKeyValue = fc.oneof(
    { weight: 10, arbitrary: fc.constant(validKey) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        other.apiKey,
        lowPlan.apiKey,
        w.disabledKey,
        w.revokedKey,
        validKey.toLowerCase(),
        validKey.slice(0, -1),
        `${validKey}x`,
      ),
    },
    { weight: 1, arbitrary: fc.stringMatching(/^gsk_[0-9A-Za-z]{40}$/) },
    { weight: 2, arbitrary: printable(80) },
    { weight: 1, arbitrary: repeated('k', 200, 3000) },
  );
  const authorization = fc.oneof(
    { weight: 6, arbitrary: apiKeyValue.map((key) => `Bearer ${key}`) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        `bearer ${validKey}`,
        `BEARER   ${validKey}  `,
        `Bearer ${validKey} extra`,
        `Basic ${Buffer.from(`user:${validKey}`).toString('base64')}`,
        `Token ${validKey}`,
        validKey,
        'Bearer',
        'Bearer ',
        `Bearer\t${validKey}`,
        `Bearer ${other.apiKey}`,
        `Digest username="${validKey}"`,
      ),
    },
    { weight: 1, arbitrary: printable(80) },
  );
  const contentType = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        'application/json',
        'application/json; charset=utf-8',
        'application/json; charset=utf-16',
        'text/plain',
        'text/html; charset=iso-8859-1',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'image/jpeg',
        'application/octet-stream',
        'application/vnd.api+json',
        'application/xml',
        '*/*',
        '',
        'json',
        'application/',
      ),
    },
    { weight: 1, arbitrary: printable(60) },
  );
  const idempotencyKey = fc.oneof(
    fc.uuid(),
    printable(60),
    repeated('i', 250, 300),
    fc.constantFrom('', ' ', 'fuzz-key-1', 'fuzz-key-2'), // fixed keys: repeats meet replays and reuse
  );
  const headers = (options: { webhook?: boolean } = {}) =>
    fc
      .record({
        'X-Tenant-Slug': fc.option(tenantSlug, { nil: undefined, freq: 8 }),
        Authorization: fc.option(authorization, { nil: undefined, freq: 6 }),
        'X-Api-Key': fc.option(apiKeyValue, { nil: undefined, freq: 2 }),
        'Content-Type': fc.option(contentType, { nil: undefined, freq: 2 }),
        'Idempotency-Key': fc.option(idempotencyKey, { nil: undefined, freq: 2 }),
        Origin: fc.option(
          fc.oneof(fc.constantFrom('https://evil.example', 'null', 'http://localhost:3000', '*'), printable(60)),
          { nil: undefined, freq: 2 },
        ),
        'Access-Control-Request-Method': fc.option(fc.oneof(fc.constantFrom(...METHODS), printable(10)), {
          nil: undefined,
          freq: 4,
        }),
        'Access-Control-Request-Headers': fc.option(printable(60), { nil: undefined, freq: 4 }),
        Accept: fc.option(fc.oneof(fc.constantFrom('application/json', 'text/html', '*/*', 'image/*'), printable(30)), {
          nil: undefined,
          freq: 4,
        }),
        Cookie: fc.option(printable(60), { nil: undefined, freq: 6 }),
        'X-Forwarded-For': fc.option(printable(40), { nil: undefined, freq: 6 }),
        'Stripe-Signature': options.webhook
          ? fc.constant(undefined)
          : fc.option(printable(80), { nil: undefined, freq: 6 }),
      })
      .map(
        (record) =>
          Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as Record<
            string,
            string
          >,
      );

  // Route bodies.
  const importRow = fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(
          fc.record(
            {
              name: fc.oneof(
                { weight: 3, arbitrary: fc.constantFrom('Ada Lovelace', 'Zoë Ærøskøbing', '李小龙', '  Grace  ') },
                { weight: 3, arbitrary: fieldValue },
              ),
              email: fieldValue,
              employeeId: fieldValue,
              shootingDayId: fc.oneof(
                fc.constantFrom(studio.smallDay.id, studio.openDay.id, other.days.earlier.id),
                fieldValue,
              ),
            },
            { requiredKeys: [] },
          ),
          fc.dictionary(fc.string({ maxLength: 10 }), anyJson, { maxKeys: 2 }),
        )
        .map(([row, extra]) => ({ ...extra, ...row })),
    },
    { weight: 1, arbitrary: anyJson },
  );
  const importBody = fc.oneof(
    { weight: 8, arbitrary: fc.array(importRow, { maxLength: 8 }).map((persons) => ({ persons })) },
    // The 500-row limit: one above it, and exactly at it with rows that are all skipped (500
    // stored persons take DynamoDB Local many seconds on a loaded machine; import tests store them).
    { weight: 1, arbitrary: importRow.map((row) => ({ persons: Array.from({ length: 501 }, () => row) })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(undefined, null, '', '   ', 42, false),
          fc.constantFrom(undefined, 'ada@example.com', 'not an address', 7),
        )
        .map(([name, email]) => ({ persons: Array.from({ length: 500 }, () => ({ name, email })) })),
    },
    { weight: 2, arbitrary: fc.record({ persons: anyJson }) },
    { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 10 }), anyJson, { maxKeys: 3 }) },
  );

  // Upload bodies: mostly well-formed files (weighted so that a run of this size reaches the
  // presigning some ten times, not two or three), so the fuzzer reaches the presigning. Completions
  // abort (the local S3 server has no uploads to complete with made-up IDs; S3 refuses those per file).
  const uploadPath = fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom('IMG_0001.jpg', 'cam-a/IMG_0002.JPG', 'a/b/c/d.jpeg') },
    { weight: 1, arbitrary: fc.constantFrom('../x.jpg', '/x.jpg', 'a/b/c/d/e.jpg', 'x.png') },
    { weight: 1, arbitrary: fieldValue },
  );
  const mostlyValid = <T>(valid: fc.Arbitrary<T>) =>
    fc.oneof({ weight: 12, arbitrary: valid }, { weight: 1, arbitrary: fieldValue });
  const uploadFile = fc.record(
    {
      path: uploadPath,
      size: fc.oneof(
        { weight: 12, arbitrary: fc.integer({ min: 1, max: 20 * 1024 * 1024 }) },
        { weight: 1, arbitrary: fc.constantFrom(0, -1, 1.5, 64 * 1024 * 1024 + 1) },
        { weight: 1, arbitrary: fieldValue },
      ),
      capturedAt: mostlyValid(fc.constant('2026-11-20T10:00:01.120Z')),
      camera: mostlyValid(fc.constant('Canon EOS R5 #0123')),
      contentType: mostlyValid(fc.constant('image/jpeg')),
    },
    { requiredKeys: ['path', 'size'] },
  );
  const uploadBody = fc.oneof(
    { weight: 8, arbitrary: fc.array(uploadFile, { minLength: 1, maxLength: 2 }).map((files) => ({ files })) },
    { weight: 1, arbitrary: fc.record({ partSize: anyJson, files: fc.array(uploadFile, { maxLength: 2 }) }) },
    { weight: 1, arbitrary: fc.record({ files: anyJson }) },
  );
  const completeBody = fc.oneof(
    {
      weight: 8,
      arbitrary: fc
        .array(
          fc.record({
            path: uploadPath,
            uploadId: mostlyValid(fc.string({ minLength: 1, maxLength: 40 })),
            action: mostlyValid(fc.constant('abort')),
          }),
          { minLength: 1, maxLength: 2 },
        )
        .map((files) => ({ files })),
    },
    { weight: 1, arbitrary: fc.record({ files: anyJson }) },
  );

  const CHECKIN_MEMBERS = {
    action: fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...CHECKIN_ACTIONS) },
      { weight: 1, arbitrary: fieldValue },
    ),
    token: fc.oneof(fc.constantFrom(studio.token, studio.ordinaryToken, other.token), fieldValue),
    name: fieldValue,
    email: fieldValue,
    employeeId: fieldValue,
    phone: fieldValue,
    department: fieldValue,
    notes: fieldValue,
    orderNotes: fieldValue,
    consentGiven: fc.oneof(fc.boolean(), fieldValue),
    faceConsent: fc.oneof(fc.boolean(), fieldValue),
    notificationConsent: fc.oneof(fc.boolean(), fieldValue),
    hrExportConsent: fc.oneof(fc.boolean(), fieldValue),
    termsAccepted: fc.oneof(fc.boolean(), fieldValue),
    customFields: fc.oneof(
      fc.dictionary(
        fc.constantFrom(...Object.values(studio.fieldKeys), 'employeeId', 'custom-unknown', '__proto__'),
        fieldValue,
        { maxKeys: 3 },
      ),
      fieldValue,
    ),
    shootingDayId: fc.oneof(fc.constantFrom(studio.smallDay.id, studio.openDay.id, other.days.earlier.id), fieldValue),
    selectedPackageId: fc.oneof(
      fc.constantFrom(studio.freePackage.id, studio.paidPackage.id, other.freePackage.id),
      fieldValue,
    ),
    selfieBase64: fc.oneof(
      fc.constantFrom(
        'data:image/jpeg;base64,',
        'data:image/png;base64,AAAA',
        '////',
        `data:image/jpeg;base64,${makeJpeg(8, 8).toString('base64')}`,
        makeJpeg(4, 4).toString('base64'),
      ),
      fc.base64String({ maxLength: 200 }),
      fieldValue,
    ),
    statusToken: fc.oneof(fc.stringMatching(/^gst_[0-9A-Za-z]{0,40}$/), fieldValue),
    retryToken: fc.oneof(fc.stringMatching(/^grt_[0-9A-Za-z]{0,40}$/), fieldValue),
    returnUrl: fc.oneof(
      fc.webUrl(),
      fc.constantFrom('http://localhost/checkin', 'javascript:alert(1)', 'https://'),
      fieldValue,
    ),
  };
  const memberNames = Object.keys(CHECKIN_MEMBERS);
  const checkinBody = fc
    .tuple(
      fc.boolean(),
      fc.record(CHECKIN_MEMBERS),
      fc.subarray(memberNames, { maxLength: 4 }),
      fc.dictionary(fc.string({ maxLength: 10 }), anyJson, { maxKeys: 2 }),
    )
    .map(([fromValid, values, replaced, extra]) => ({
      ...extra,
      ...(fromValid ? studio.validBody() : {}),
      ...Object.fromEntries(replaced.map((name) => [name, values[name as keyof typeof values]])),
    }));

  /** Stripe events: their shape, with random types, IDs, accounts and session data. */
  const stripeEvent = fc.record(
    {
      id: fc.oneof(fc.stringMatching(/^evt_[0-9A-Za-z]{8,24}$/), fc.string({ unit: 'grapheme', maxLength: 30 })),
      object: fc.constant('event'),
      type: fc.oneof(
        fc.constantFrom(
          'checkout.session.completed',
          'checkout.session.expired',
          'checkout.session.async_payment_succeeded',
          'checkout.session.async_payment_failed',
          'account.updated',
          'payment_intent.succeeded',
          'checkout.session.',
        ),
        fc.string({ maxLength: 30 }),
      ),
      account: fc.oneof(fc.stringMatching(/^acct_[0-9A-Za-z]{8,16}$/), fc.string({ maxLength: 20 })),
      created: fc.integer({ min: 0, max: 2 ** 31 }),
      data: fc.record({
        object: fc.record(
          {
            id: fc.oneof(
              fc.stringMatching(/^(cs|acct)_[0-9A-Za-z]{8,24}$/),
              fc.string({ unit: 'grapheme', maxLength: 30 }),
            ),
            object: fc.constantFrom('checkout.session', 'account', 'x'),
            metadata: fc.oneof(
              fc.constant(null),
              fc.record(
                {
                  orderId: fc.oneof(
                    fc.stringMatching(/^ord_[0-9a-z]{26}$/),
                    fc.string({ unit: 'grapheme', maxLength: 40 }),
                  ),
                  tenantId: fc.oneof(
                    fc.constantFrom(studio.tenant.tenantId, other.tenant.tenantId),
                    fc.string({ unit: 'grapheme', maxLength: 40 }),
                  ),
                  galleryToken: fc.oneof(
                    fc.constantFrom(studio.token, other.token),
                    fc.string({ unit: 'grapheme', maxLength: 40 }),
                  ),
                },
                { requiredKeys: [] },
              ),
            ),
            payment_status: fc.oneof(
              fc.constantFrom('paid', 'unpaid', 'no_payment_required'),
              fc.string({ maxLength: 10 }),
            ),
            charges_enabled: fc.oneof(fc.boolean(), nonString),
            capabilities: fc.oneof(
              fc.record({ card_payments: fc.constantFrom('active', 'inactive', 'pending') }),
              nonString,
            ),
          },
          { requiredKeys: [] },
        ),
      }),
    },
    { requiredKeys: ['id', 'type', 'data'] },
  );
  /** How Stripe-Signature is made for the body: right, or wrong in one of many ways. */
  const signatureMode = fc.oneof(
    { weight: 4, arbitrary: fc.constant({ kind: 'valid' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'absent' as const }) },
    {
      weight: 4,
      arbitrary: fc.oneof(
        fc
          .constantFrom('wrong-secret', 'stale', 'future', 'v0-only', 'other-body', 'reordered-wrong', 'no-timestamp')
          .map((kind) => ({ kind })),
        printable(120).map((header) => ({ kind: 'literal' as const, header })),
        fc
          .tuple(fc.integer({ min: 0, max: 2 ** 40 }), fc.stringMatching(/^[0-9a-f]{64}$/))
          .map(([t, v1]) => ({ kind: 'literal' as const, header: `t=${t},v1=${v1}` })),
      ),
    },
  );
  const webhookBody = fc.oneof(
    { weight: 3, arbitrary: stripeEvent.map(rawJson) },
    { weight: 2, arbitrary: genericBody },
  );
  /** JSON that is not a Stripe event: any value, or an event with a member missing or of another type. */
  const notAnEvent = fc
    .oneof(
      genericBody,
      fc
        .tuple(
          stripeEvent,
          fc.constantFrom('id', 'type', 'data', 'object', 'data.object'),
          fc.option(anyJson, { nil: undefined }),
        )
        .map(([event, member, value]) => {
          const copy: Record<string, unknown> = { ...event, data: { ...event.data } };
          const [holder, name] =
            member === 'data.object' ? [copy.data as Record<string, unknown>, 'object'] : [copy, member];
          if (value === undefined) delete holder[name];
          else holder[name] = value;
          return rawJson(copy);
        }),
    )
    .filter((raw) => !isStripeEvent(raw.text));

  /** The JSON body of a POST route, by route; other POST routes of the future get generic bodies. */
  const routeBody = (route: Route): fc.Arbitrary<RawBody> => {
    // Mostly what the service takes (a size in range, a day of the gallery), so that enough requests reach the endpoint itself.
    const hrExportBody = fc.record(
      {
        size: fc.oneof(
          { weight: 3, arbitrary: fc.integer({ min: 64, max: 2048 }) },
          { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.string()) },
        ),
        shootingDayId: fc.oneof(
          { weight: 3, arbitrary: fc.constant(w.studio.smallDay.id) },
          { weight: 1, arbitrary: fc.oneof(fc.string(), fc.constant(null), fc.integer()) },
        ),
      },
      { requiredKeys: [] },
    );
    // One-click unsubscribe: its form body (RFC 8058), or something near it.
    const oneClickBody = fc.oneof(
      { weight: 4, arbitrary: fc.constant('List-Unsubscribe=One-Click') },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          'List-Unsubscribe=one-click',
          'List-Unsubscribe=',
          'List-Unsubscribe=One-Click&x=%ZZ',
        ),
      },
    );
    if (route.access === 'link')
      return fc.oneof(
        { weight: 6, arbitrary: oneClickBody.map((text) => new RawBody(text)) },
        { weight: 4, arbitrary: genericBody },
      );
    const specific =
      {
        importPersons: importBody,
        submitCheckin: checkinBody,
        createUploads: uploadBody,
        completeUploads: completeBody,
        createHrExport: hrExportBody,
      }[route.id] ?? anyJson;
    // The route's body with one more member nested many levels deep.
    const withDeepMember = fc.tuple(specific, nestingDepth).map(([value, depth]) => {
      const json = JSON.stringify(value);
      if (!json.startsWith('{') || json === '{}') return new RawBody(json);
      return new RawBody(
        `{"nested":${deeplyNested(depth)},${json.slice(1)}`,
        `{"nested": ${nestedLabel(depth)}, ...${fc.stringify(value)}}`,
      );
    });
    return fc.oneof(
      { weight: 6, arbitrary: specific.map(rawJson) },
      { weight: 2, arbitrary: withDeepMember },
      { weight: 4, arbitrary: genericBody },
    );
  };

  return { pathOf, queryString, headers, routeBody, webhookBody, notAnEvent, signatureMode, garbageSegment };
}

/** valid, future (also valid: Stripe refuses old timestamps only), absent, wrong in some way, or a literal header. */
type SignatureMode = { kind: string; header?: string };

function stripeSignature(body: string, mode: SignatureMode): { header?: string; signed: boolean } {
  const now = Math.floor(Date.now() / 1000); // Stripe's SDK checks the tolerance on the real clock
  const sign = (secret: string, timestamp: number, payload = body) =>
    createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  switch (mode.kind) {
    case 'valid':
      // fetch sends lone surrogates as U+FFFD: such a body cannot arrive as it was signed.
      return { header: `t=${now},v1=${sign(WEBHOOK_SECRET, now)}`, signed: isWellFormed(body) };
    case 'absent':
      return { signed: false };
    case 'wrong-secret':
      return { header: `t=${now},v1=${sign('whsec_wrong', now)}`, signed: false };
    case 'stale':
      return { header: `t=${now - 3600},v1=${sign(WEBHOOK_SECRET, now - 3600)}`, signed: false };
    case 'future':
      // Stripe's SDK refuses old timestamps only: a future one with the right signature is valid.
      return { header: `t=${now + 3600},v1=${sign(WEBHOOK_SECRET, now + 3600)}`, signed: isWellFormed(body) };
    case 'v0-only':
      return { header: `t=${now},v0=${sign(WEBHOOK_SECRET, now)}`, signed: false };
    case 'other-body':
      return { header: `t=${now},v1=${sign(WEBHOOK_SECRET, now, `${body} `)}`, signed: false };
    case 'reordered-wrong':
      return { header: `v1=${sign(WEBHOOK_SECRET, now - 1)},t=${now}`, signed: false };
    case 'no-timestamp':
      return { header: `v1=${sign(WEBHOOK_SECRET, now)}`, signed: false };
    default:
      return { header: mode.header, signed: false };
  }
}

/** Node answers 431 before any function for request lines and headers above 16 KiB. */
const fitsNodeLimits = (request: { path: string; headers: Record<string, string> }) =>
  request.path.length +
    Object.entries(request.headers).reduce((sum, [name, value]) => sum + name.length + value.length + 4, 0) <
  12_000;

// ---------------------------------------------------------------------------------------------

async function importPersons(
  headers: Record<string, string>,
  token: string,
  persons: Record<string, unknown>[],
): Promise<string[]> {
  const answer = await send({
    method: 'POST',
    path: `/groupshoot/${token}/persons`,
    headers,
    body: JSON.stringify({ persons }),
  });
  expect(answer.status).toBe(200);
  return answer.body.persons.map((person: { personId: string }) => person.personId);
}

describe('fuzzing every endpoint of the route table (fast-check)', () => {
  beforeAll(async () => {
    const [studio, other, lowPlan] = await Promise.all([
      createCheckinStudio(),
      createTestTenant(),
      createTestTenant({ plan: 'starter' }),
    ]);
    const disabled = await createApiKey(studio.tenant.tenantId, 'disabled key');
    const revoked = await createApiKey(studio.tenant.tenantId, 'revoked key');
    await setApiKeyStatus(studio.tenant.tenantId, disabled.record.keyId, 'disabled');
    await setApiKeyStatus(studio.tenant.tenantId, revoked.record.keyId, 'revoked');
    const employeeIds = ['E-1', 'Ä-2 ü', 'E 3'];
    const personIds = await importPersons(studio.serverHeaders, studio.token, [
      { name: 'Ada Lovelace', email: 'ada@example.com', employeeId: employeeIds[0], shootingDayId: studio.openDay.id },
      { name: 'Zoë 🙂 Ærø', employeeId: employeeIds[1] },
      { name: 'Grace Hopper', employeeId: employeeIds[2], shootingDayId: studio.smallDay.id },
    ]);
    const [foreignPersonId] = await importPersons(other.serverHeaders, other.token, [
      { name: 'Foreign Person', employeeId: employeeIds[0] },
    ]);
    const photoKey = photoObjectKey({
      tenantId: studio.tenant.tenantId,
      token: studio.token,
      personId: personIds[0]!,
      fileName: 'portrait.jpg',
    });
    await uploadObject(photoKey, makeJpeg(32, 24));
    await ingestPhoto(objectCreatedEvent(photoKey, new Date().toISOString()));
    const page = await send({
      method: 'GET',
      path: `/groupshoot/${studio.token}/persons?limit=1`,
      headers: studio.serverHeaders,
    });
    expect(page.body.nextCursor).toEqual(expect.any(String));
    // HR exports are queued, not built, here: the fuzzer reaches both endpoints.
    await updateGallerySettings(studio.tenant.tenantId, studio.token, {
      granularConsents: { face: true, notification: false, hrExport: true },
    });
    replacedExportQueue = useHrExportQueue({ send: async () => undefined });
    const created = await send({
      method: 'POST',
      path: `/groupshoot/${studio.token}/hr-exports`,
      headers: studio.serverHeaders,
      body: '{}',
    });
    expect(created.status).toBe(202);
    world = {
      studio,
      other,
      lowPlan,
      disabledKey: disabled.secret,
      revokedKey: revoked.secret,
      personIds,
      employeeIds,
      foreignPersonId: foreignPersonId!,
      cursor: page.body.nextCursor,
      exportIds: [created.body.exportId],
      unsubscribeLinks: await Promise.all(
        personIds.map(async (personId) => {
          const url = await unsubscribeUrlOf({ tenantId: studio.tenant.tenantId, token: studio.token }, personId);
          return url.slice(url.lastIndexOf('/') + 1);
        }),
      ),
    };
  }, 60_000);
  afterAll(() => useHrExportQueue(replacedExportQueue));

  describe.each((routes as readonly Route[]).flatMap((route) => pathsOf(route).map((path) => ({ route, path }))))(
    '$route.method $path ($route.id, $route.access)',
    ({ route, path }) => {
      it(
        'never answers 5xx; every answer has X-Request-Id, every error the error shape',
        async () => {
          const arb = arbitraries(world);
          const body: fc.Arbitrary<RawBody | undefined> =
            route.access === 'webhook'
              ? arb.webhookBody
              : route.method === 'POST'
                ? arb.routeBody(route)
                : route.method === 'OPTIONS'
                  ? fc.option(genericBody, { nil: undefined, freq: 4 })
                  : fc.constant(undefined);
          const request = fc
            .record({
              path: fc.tuple(arb.pathOf(path), arb.queryString).map(([pathPart, query]) => pathPart + query),
              headers: arb.headers({ webhook: route.access === 'webhook' }),
              body,
              signature: route.access === 'webhook' ? arb.signatureMode : fc.constant(undefined),
            })
            .filter(fitsNodeLimits);
          const counts = tally();
          await fc.assert(
            fc.asyncProperty(request, async ({ path: target, headers, body: raw, signature }) => {
              const fuzzed: FuzzRequest = { method: route.method, path: target, headers, body: raw?.text };
              if (signature) {
                // Only Stripe can sign, and it signs events: a body of another shape gets a wrong
                // signature here (the next test signs such bodies correctly).
                const mode =
                  isStripeEvent(raw?.text) || !['valid', 'future'].includes(signature.kind)
                    ? signature
                    : { kind: 'wrong-secret' };
                const { header, signed } = stripeSignature(raw?.text ?? '', mode);
                fuzzed.headers = header === undefined ? headers : { ...headers, 'Stripe-Signature': header };
                fuzzed.signed = signed ? 'event' : false;
              }
              const answer = await send(fuzzed);
              counts.add(answer);
              expectSoundAnswer(fuzzed, answer);
            }),
            { ...FC_LIMITS, numRuns: route.method === 'POST' ? 2 * RUNS_PER_ROUTE_PATH : RUNS_PER_ROUTE_PATH },
          );
          report(`${route.method} ${path}`, counts);
          // The fuzzer reaches the endpoint itself, not only the refusals in front of it.
          expect(counts.successes()).toBeGreaterThan(0);
        },
        PROPERTY_TIMEOUT_MS,
      );
    },
  );

  describe.each((routes as readonly Route[]).filter((route) => route.access === 'webhook'))(
    '$method $path ($id)',
    (route) => {
      it(
        'a correctly signed body that is not a Stripe event never answers 5xx',
        async () => {
          const arb = arbitraries(world);
          const request = fc
            .record({ headers: arb.headers({ webhook: true }), body: arb.notAnEvent })
            .filter((fields) => isWellFormed(fields.body.text));
          const counts = tally();
          await fc.assert(
            fc.asyncProperty(request, async ({ headers, body }) => {
              const { header } = stripeSignature(body.text, { kind: 'valid' });
              const fuzzed: FuzzRequest = {
                method: route.method,
                path: route.path,
                headers: { ...headers, 'Stripe-Signature': header! },
                body: body.text,
                signed: 'other',
              };
              const answer = await send(fuzzed);
              counts.add(answer);
              expectSoundAnswer(fuzzed, answer);
            }),
            { ...FC_LIMITS, numRuns: RUNS_SIGNED_NON_EVENTS },
          );
          report(`${route.method} ${route.path} signed, not an event`, counts);
        },
        PROPERTY_TIMEOUT_MS,
      );
    },
  );

  it(
    'random methods on every path of the table: 404/405 for unknown methods, never 5xx',
    async () => {
      const arb = arbitraries(world);
      const templates = [...new Set((routes as readonly Route[]).flatMap((route) => pathsOf(route)))];
      const request = fc
        .record({
          method: fc.constantFrom(...METHODS),
          path: fc
            .tuple(
              fc.oneof(
                { weight: 4, arbitrary: fc.constantFrom(...templates).chain((template) => arb.pathOf(template)) },
                {
                  weight: 1,
                  arbitrary: fc.array(arb.garbageSegment, { maxLength: 5 }).map((segments) => `/${segments.join('/')}`),
                },
              ),
              arb.queryString,
            )
            .map(([pathPart, query]) => pathPart + query),
          headers: arb.headers(),
          body: fc.option(genericBody, { nil: undefined, freq: 3 }),
        })
        .map((fields) => ({
          ...fields,
          body: fields.method === 'GET' || fields.method === 'HEAD' ? undefined : fields.body?.text,
        }))
        .filter(fitsNodeLimits);
      const knownMethods = new Set<string>((routes as readonly Route[]).map((route) => route.method));
      const counts = tally();
      await fc.assert(
        fc.asyncProperty(request, async (fuzzed) => {
          const answer = await send(fuzzed);
          counts.add(answer);
          expectSoundAnswer(fuzzed, answer);
          // No route has PUT, PATCH, DELETE or HEAD: they reach no function.
          if (!knownMethods.has(fuzzed.method)) expect([404, 405]).toContain(answer.status);
        }),
        { ...FC_LIMITS, numRuns: RUNS_RANDOM_METHODS },
      );
      report('random methods', counts);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'paths no route has answer 404 not_found in the error shape, whatever the method',
    async () => {
      const arb = arbitraries(world);
      const templates = [...new Set((routes as readonly Route[]).flatMap((route) => pathsOf(route)))];
      const mutated = fc
        .tuple(
          fc.constantFrom(...templates).chain((template) => arb.pathOf(template)),
          fc.constantFrom('/', '/x', '//', '/..%2F', '/%00', '.json', '%20'),
          fc.boolean(),
        )
        .map(([pathPart, suffix, upper]) => (upper ? pathPart.toUpperCase() : pathPart) + suffix);
      const request = fc
        .record({
          method: fc.constantFrom(...METHODS.filter((method) => method !== 'HEAD')),
          path: fc
            .tuple(
              fc.oneof(
                fc.array(arb.garbageSegment, { maxLength: 6 }).map((segments) => `/${segments.join('/')}`),
                mutated,
              ),
              arb.queryString,
            )
            .map(([pathPart, query]) => pathPart + query),
          headers: arb.headers(),
          body: fc.option(genericBody, { nil: undefined, freq: 3 }),
        })
        .map((fields) => ({ ...fields, body: fields.method === 'GET' ? undefined : fields.body?.text }))
        .filter(fitsNodeLimits)
        .filter((fuzzed) => {
          const { withinStage, atPath } = routingOf(fuzzed);
          return withinStage !== undefined && atPath.length === 0;
        });
      const counts = tally();
      await fc.assert(
        fc.asyncProperty(request, async (fuzzed) => {
          const answer = await send(fuzzed);
          counts.add(answer);
          expectSoundAnswer(fuzzed, answer);
          expect([answer.status, answer.body.error]).toEqual([404, 'not_found']);
        }),
        { ...FC_LIMITS, numRuns: RUNS_UNMATCHED_PATHS },
      );
      report('unmatched paths', counts);
    },
    PROPERTY_TIMEOUT_MS,
  );
});

/** A JSON object with Stripe's event members (id, type, data.object), as the stripeEvent arbitrary makes them. */
function isStripeEvent(raw: string | undefined): boolean {
  try {
    const event = JSON.parse(raw ?? '');
    return (
      typeof event === 'object' &&
      event !== null &&
      typeof event.id === 'string' &&
      typeof event.type === 'string' &&
      typeof event.data?.object === 'object' &&
      event.data.object !== null &&
      event.object === 'event'
    );
  } catch {
    return false;
  }
}
