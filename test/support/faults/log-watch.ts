/**
 * Watching the service's logs for personal data and secrets: everything written to stdout,
 * stderr and the console while a test file runs is captured; requests to the local API get
 * canary values planted in them (every one carries CANARY); the secrets the service hands out
 * (gallery tokens, access codes, statusToken, retryToken) are harvested from its answers; and
 * the captured lines are searched for all of them, in clear, base64 and URL-encoded.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { inspect } from 'node:util';
import { logger } from '#lib/platform/logger';
import type { ApiAnswer, ApiCall } from '../local-api';
import { makeJpeg } from '../media';
import { services } from './local-services';

/** The root of every planted value: lowercase, so it survives the normalisation of emails. */
export const CANARY = `kanarie${randomBytes(4).toString('hex')}`;
/** The planted phone number's digits (a phone number of letters would not be one). */
export const PHONE_DIGITS = `0170${randomInt(1_000_000, 9_999_999)}`;

/** A JPEG with the canary in a comment segment, as a selfie. */
export const canarySelfie = (() => {
  const jpeg = makeJpeg(16, 16);
  const text = Buffer.from(`${CANARY}selfie`);
  const comment = Buffer.concat([Buffer.from([0xff, 0xfe, 0, text.length + 2]), text]);
  return Buffer.concat([jpeg.subarray(0, 2), comment, jpeg.subarray(2)]).toString('base64');
})();

export interface CapturedLine {
  source: 'stdout' | 'stderr' | 'console' | 'Lambda runtime';
  text: string;
}

const captured: CapturedLine[] = [];
let taken = 0;
const needles = new Map<string, string>(); // lowercase needle → what it is
const accessCodes = new Set<string>();
/** What the test file sent: requests to the local API, handler invocations, runs of the fault matrix. */
export const tally = { requests: 0, invocations: 0, matrixRuns: 0 };

/** The base64 (and base64url) of `value` at each of the three byte alignments, without the characters its neighbours decide. */
function base64Forms(value: string): string[] {
  const bytes = Buffer.from(value);
  return [0, 1, 2].flatMap((offset) => {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const inner = encoded.slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + bytes.length) * 8) / 6));
    return inner.length >= 8 ? [inner, inner.replace(/\+/g, '-').replace(/\//g, '_')] : [];
  });
}

/** A value that must never appear in a log line, in any of its usual encodings. */
export function addSecret(value: string, what: string): void {
  for (const form of new Set([value, encodeURIComponent(value), ...base64Forms(value)]))
    needles.set(form.toLowerCase(), what);
}

/** An access code: four characters, searched as a whole word (all-digit codes would match counts and line numbers). */
export function addAccessCode(code: unknown): void {
  if (typeof code === 'string' && /^[A-Z0-9]{4}$/.test(code) && /[A-Z]/.test(code)) accessCodes.add(code);
}

addSecret(CANARY, 'a planted value (name, email, employee ID, department, notes, custom field, Idempotency-Key, …)');
addSecret(PHONE_DIGITS, 'the planted phone number');
addSecret(canarySelfie.slice(200, 260), 'the planted selfie (base64)');

/** Everything a log line could leak, and the lines that leak it. */
export function leaksIn(lines: readonly CapturedLine[]): string[] {
  const leaks: string[] = [];
  for (const line of lines) {
    const lower = line.text.toLowerCase();
    for (const [needle, what] of needles)
      if (lower.includes(needle)) leaks.push(`${what} (${needle}) in ${line.source}: ${line.text.slice(0, 600)}`);
    // The level and the timestamp (…58.778Z) are the service's own words, not data.
    const words = new Set(line.text.replace(/"(level|timestamp)":"[^"]*"/g, '').split(/[^A-Za-z0-9]+/));
    for (const code of accessCodes)
      if (words.has(code)) leaks.push(`access code ${code} in ${line.source}: ${line.text.slice(0, 600)}`);
  }
  return leaks;
}

/** The lines captured since the last call. */
export function takeLines(): CapturedLine[] {
  const lines = captured.slice(taken);
  taken = captured.length;
  return lines;
}

export const allLines = (): readonly CapturedLine[] => captured;

/**
 * What the Lambda runtime writes when a handler throws: the error's name, message, stack and
 * every enumerable field (the Node.js runtime's "Invoke Error" line).
 */
export function logThrownAsTheRuntimeDoes(error: unknown): void {
  const withFields = (value: unknown) =>
    value instanceof Error
      ? { errorType: value.name, errorMessage: value.message, ...value, stack: value.stack?.split('\n') }
      : value;
  captured.push({
    source: 'Lambda runtime',
    text: `ERROR\tInvoke Error \t${JSON.stringify(error, (_key, value) => withFields(value))}`,
  });
}

function plantPerson(row: Record<string, unknown>, checkin: boolean): void {
  if (typeof row.name === 'string' && row.name.includes(CANARY)) return;
  const name = typeof row.name === 'string' ? row.name : 'Ada';
  row.name = `${name} ${CANARY}name`;
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '.');
  row.email =
    typeof row.email === 'string' ? row.email.replace('@', `.${CANARY}mail@`) : `${slug}.${CANARY}mail@example.com`;
  row.employeeId = typeof row.employeeId === 'string' ? `${row.employeeId}-${CANARY}emp` : `E-${slug}-${CANARY}emp`;
  if (!checkin) return;
  Object.assign(row, {
    phone: `+49 ${PHONE_DIGITS}`,
    department: `${CANARY}dept`,
    notes: `${CANARY}notes`,
    orderNotes: `${CANARY}ordernotes`,
  });
  if (typeof row.selfieBase64 === 'string') row.selfieBase64 = canarySelfie;
}

function harvest(value: unknown, key = ''): void {
  if (Array.isArray(value)) for (const item of value) harvest(item, key);
  else if (typeof value === 'object' && value !== null)
    for (const [name, member] of Object.entries(value)) harvest(member, name);
  else if (typeof value === 'string') {
    if (key === 'code') addAccessCode(value);
    if (key === 'statusToken' || key === 'retryToken') addSecret(value, key);
    if (key === 'token' || key === 'galleryToken') addSecret(value, 'gallery token');
  }
}

let idempotencyKeys = 0;

/**
 * Plants canaries in every request to the local API (persons' fields, selfies, an
 * Idempotency-Key on every POST that takes one) and harvests the secrets of every answer.
 * The bodies are changed in place, so a probe's own checks see what was sent.
 */
function plantAndHarvest(call: (path: string, options?: ApiCall) => Promise<ApiAnswer>) {
  return async (path: string, options: ApiCall = {}): Promise<ApiAnswer> => {
    const body = options.body;
    if (typeof body === 'object' && body !== null) {
      const members = body as Record<string, unknown>;
      if (members.action === 'submitCheckin') plantPerson(members, true);
      if (Array.isArray(members.persons))
        for (const row of members.persons)
          if (typeof row === 'object' && row) plantPerson(row as Record<string, unknown>, false);
    }
    const headers = { ...options.headers };
    const takesKey = options.method === 'POST' && !path.startsWith('/webhooks') && typeof body === 'object';
    if (takesKey && !Object.keys(headers).some((name) => name.toLowerCase() === 'idempotency-key')) {
      headers['Idempotency-Key'] = `${CANARY}-key-${(idempotencyKeys += 1)}`;
    }
    tally.requests += 1;
    const answer = await call(path, { ...options, headers });
    harvest(answer.body);
    return answer;
  };
}

/**
 * Call after useFaultHarness(): from the first test on, logs go to the capture at level DEBUG,
 * and requests to the local API carry canaries.
 */
export function useLogWatch(): void {
  const restore: (() => void)[] = [];
  beforeAll(() => {
    const api = services.api;
    const call = api.call.bind(api);
    api.call = plantAndHarvest(call);
    restore.push(() => (api.call = call));
    for (const [stream, source] of [
      [process.stdout, 'stdout'],
      [process.stderr, 'stderr'],
    ] as const) {
      const write = stream.write;
      // Every write is recorded; only the service's JSON lines are kept off the terminal.
      stream.write = (chunk: string | Uint8Array, ...rest: unknown[]) => {
        const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
        for (const line of text.split('\n')) if (line.trim() !== '') captured.push({ source, text: line });
        return text.startsWith('{') ? true : (write as (...args: unknown[]) => boolean).call(stream, chunk, ...rest);
      };
      restore.push(() => (stream.write = write));
    }
    for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) {
      const original = console[method];
      console[method] = (...args: unknown[]) =>
        captured.push({
          source: 'console',
          text: args.map((arg) => (typeof arg === 'string' ? arg : inspect(arg, { depth: 8 }))).join(' '),
        });
      restore.push(() => (console[method] = original));
    }
    for (const [name, value] of [
      ['STRIPE_SECRET_KEY', process.env.STRIPE_SECRET_KEY],
      ['STRIPE_WEBHOOK_SECRET', process.env.STRIPE_WEBHOOK_SECRET],
    ]) {
      if (value) addSecret(value, name!);
    }
    const signingKey = (process.env.CLOUDFRONT_PRIVATE_KEY ?? '').split('\n').filter((line) => line.length === 64);
    for (const line of signingKey.slice(1, 4)) addSecret(line, 'the photo signing key');
    logger.setLogLevel('DEBUG');
  });
  afterAll(() => {
    logger.setLogLevel('SILENT');
    for (const undo of restore.reverse()) undo();
  });
}
