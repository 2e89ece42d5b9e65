import { createHash } from 'node:crypto';
import { types } from 'node:util';
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { DomainError } from '#lib/platform/domain-error';

/**
 * Structured JSON logs, and the one place that decides what a log line may hold.
 *
 * A line holds a message (a string literal), the fields of LOG_FIELDS and nothing else:
 * identifiers that are neither personal nor secret (tenant slug, API key ID, person, order,
 * Checkout Session and Stripe event IDs, request ID, route), counts, durations, a short hash of
 * a gallery token (galleryRef), and errors as loggableError() reduces them. Names, emails,
 * phone numbers, tokens, access codes, object keys (they contain the gallery token), bodies,
 * headers and SDK items are never among them. The type of `logger` refuses anything else at
 * compile time, and the same table drops it at run time.
 */

/** An error reduced to what identifies the failure; only loggableError() makes one. */
export interface LoggedError {
  readonly [loggedErrorBrand]: true;
  /** The class of the error: ConditionalCheckFailedException, TimeoutError, DomainError, … */
  readonly name: string;
  /** Our DomainError reason or ApiError code, a Stripe error code, a Node system error code. */
  readonly code?: string;
  /** The Stripe error type (StripeConnectionError, …). */
  readonly type?: string;
  /** The AWS SDK's `$fault`: whose fault the failure was. */
  readonly fault?: 'client' | 'server';
  readonly httpStatusCode?: number;
  /** The AWS or Stripe request ID, to look the call up with the provider. */
  readonly serviceRequestId?: string;
  readonly attempts?: number;
  /** The codes of a cancelled transaction's reasons (never their items or messages). */
  readonly cancellationReasons?: readonly string[];
  /** The stack frames of our own code, without the first line (which holds the message). */
  readonly stack?: readonly string[];
  readonly cause?: LoggedError;
}
declare const loggedErrorBrand: unique symbol;

/** A gallery in a log line: a short hash of its token, which is the gallery's secret. */
export type GalleryRef = string & { readonly [galleryRefBrand]: true };
declare const galleryRefBrand: unique symbol;

/** What each field may hold: `id` is an identifier-shaped string (letters, digits, `_.:-`). */
const LOG_FIELDS = {
  // Appended by the request pipeline.
  requestId: 'id',
  route: 'id',
  tenant: 'id', // the tenant's slug: a business, not a person
  apiKeyId: 'id', // the key's ID (key_…), never its secret
  // The access line.
  method: 'id',
  status: 'number',
  durationMs: 'number',
  // What an operation concerned.
  tenantId: 'id', // a random ID (ten_…)
  personId: 'id', // a random ID (per_…); it names a person only to whoever can read the table
  orderId: 'id',
  sessionId: 'id', // Stripe Checkout Session ID; not the URL a participant pays at
  eventId: 'id',
  eventType: 'id',
  subscriptionId: 'id', // a webhook subscription (whk_…); never its URL or secret
  operation: 'id',
  outcome: 'id',
  gallery: 'gallery',
  objectSize: 'number',
  notWritten: 'number',
  counts: 'counts',
  error: 'error',
} as const;

interface FieldKinds {
  id: string;
  number: number;
  gallery: GalleryRef;
  /** A tally: only its members that are finite numbers are written. */
  counts: object;
  error: LoggedError;
}

/** The fields a log line may carry. */
export type LogFields = { readonly [F in keyof typeof LOG_FIELDS]?: FieldKinds[(typeof LOG_FIELDS)[F]] };

/**
 * A message must be a string literal: neither a string nor a template with values in it type-checks
 * (for those, Record<M, 1> has an index signature, which {} satisfies).
 */
type LiteralMessage<M extends string> = Record<never, never> extends Record<M, 1> ? never : M;

const IDENTIFIER = /^[A-Za-z0-9_.:-]{1,100}$/;
const GALLERY_REF = /^g_[0-9a-f]{12}$/;
const REDACTED = '[redacted]';
const loggedErrors = new WeakSet<object>();

const identifier = (value: unknown): string | undefined =>
  typeof value === 'string' && IDENTIFIER.test(value) ? value : undefined;
const finiteNumber = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;
const isError = (value: unknown): value is Error => value instanceof Error || types.isNativeError(value);

/**
 * The frames of our own code (not node_modules, not Node's internals), at most eight. The first
 * lines of a stack repeat the message, so as many lines as the message has are skipped first.
 */
function ownFrames(error: Error): string[] | undefined {
  if (typeof error.stack !== 'string') return undefined;
  const headerLines = String(error.message ?? '').split('\n').length;
  const frames = error.stack
    .split('\n')
    .slice(headerLines)
    .map((line) => line.trim())
    .filter((line) => /^at \S.{0,300}$/.test(line) && !/node_modules|node:|\(native\)/.test(line));
  return frames.length > 0 ? frames.slice(0, 8) : undefined;
}

/**
 * What of an error is logged. Every error goes through here: the type of `logger` accepts no
 * other error shape, and a raw Error that still reaches Powertools is passed through it too.
 *
 * Messages are never logged, not even ours: the AWS SDK's validation messages and Stripe's
 * messages can quote the values of a request, JSON.parse quotes its input, and some of our own
 * messages name what was wrong with a field. Our own errors are found by their code and the
 * frames of their stack (which point at the line that threw, where the message is written);
 * the provider's by their name, HTTP status and request ID. Enumerable fields of an error are
 * never copied: an SDK error can carry whole items (`Item` of ConditionalCheckFailedException,
 * `CancellationReasons[].Item` of TransactionCanceledException).
 */
export function loggableError(error: unknown, depth = 0): LoggedError {
  let logged: Record<string, unknown>;
  if (!isError(error)) {
    logged = { name: `thrown ${typeof error}` };
  } else {
    const fields = error as unknown as Record<string, unknown>;
    const metadata = (fields.$metadata ?? {}) as Record<string, unknown>;
    const reasons = Array.isArray(fields.CancellationReasons) ? (fields.CancellationReasons as unknown[]) : undefined;
    logged = {
      name: identifier(error.name) ?? REDACTED,
      code: error instanceof DomainError ? error.reason : (identifier(fields.code) ?? identifier(fields.Code)),
      type: identifier(fields.type),
      fault: fields.$fault === 'client' || fields.$fault === 'server' ? fields.$fault : undefined,
      httpStatusCode: finiteNumber(metadata.httpStatusCode) ?? finiteNumber(fields.statusCode),
      serviceRequestId: identifier(metadata.requestId) ?? identifier(fields.requestId),
      attempts: finiteNumber(metadata.attempts),
      cancellationReasons: reasons?.map((reason) => identifier((reason as { Code?: unknown } | null)?.Code) ?? 'None'),
      stack: ownFrames(error),
      cause: fields.cause !== undefined && depth < 2 ? loggableError(fields.cause, depth + 1) : undefined,
    };
  }
  const compact = Object.fromEntries(Object.entries(logged).filter(([, value]) => value !== undefined));
  loggedErrors.add(compact);
  return compact as unknown as LoggedError;
}

/** A gallery as a log line may name it: the first 12 hex digits of the SHA-256 of its token. */
export function galleryRef(token: string): GalleryRef {
  return `g_${createHash('sha256').update(token).digest('hex').slice(0, 12)}` as GalleryRef;
}

function loggableValue(kind: keyof FieldKinds, value: unknown): unknown {
  switch (kind) {
    case 'id':
      return identifier(value) ?? REDACTED;
    case 'number':
      return finiteNumber(value) ?? REDACTED;
    case 'gallery':
      return typeof value === 'string' && GALLERY_REF.test(value) ? value : REDACTED;
    case 'counts':
      return typeof value === 'object' && value !== null
        ? Object.fromEntries(
            Object.entries(value).flatMap(([name, count]) =>
              identifier(name) && finiteNumber(count) !== undefined ? [[name, count]] : [],
            ),
          )
        : REDACTED;
    case 'error':
      return typeof value === 'object' && value !== null && loggedErrors.has(value) ? value : loggableError(value);
  }
}

/** The fields as they are written: unknown names dropped, values of the wrong shape redacted. */
function loggableFields(fields: LogFields | undefined): Record<string, unknown> {
  const written: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields ?? {})) {
    const kind = (LOG_FIELDS as Record<string, keyof FieldKinds>)[name];
    if (kind && value !== undefined) written[name] = loggableValue(kind, value);
  }
  return written;
}

const powertools = new Logger({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'groupshoot-api',
  // Errors that Powertools logs on its own account go through the same reduction.
  jsonReplacerFn: (_key, value) => (isError(value) ? loggableError(value) : value),
});

type Level = 'debug' | 'info' | 'warn' | 'error';
const write = (level: Level, message: string, fields?: LogFields) =>
  powertools[level](String(message), loggableFields(fields));

/** The service's logger. It takes a literal message and LogFields, nothing else. */
export const logger = {
  debug: <M extends string>(message: LiteralMessage<M>, fields?: LogFields): void => write('debug', message, fields),
  info: <M extends string>(message: LiteralMessage<M>, fields?: LogFields): void => write('info', message, fields),
  warn: <M extends string>(message: LiteralMessage<M>, fields?: LogFields): void => write('warn', message, fields),
  error: <M extends string>(message: LiteralMessage<M>, fields?: LogFields): void => write('error', message, fields),
  /** Fields on every later line until the end of the request (the pipeline resets them). */
  appendKeys: (fields: Pick<LogFields, 'requestId' | 'route' | 'tenant' | 'apiKeyId'>): void =>
    powertools.appendKeys(loggableFields(fields)),
  setLogLevel: (level: Parameters<Logger['setLogLevel']>[0]): void => powertools.setLogLevel(level),
  /**
   * The middy middleware that adds the Lambda context to every line of a request and resets the
   * appended keys after it. The event is never logged, whatever POWERTOOLS_LOGGER_LOG_EVENT says.
   */
  lambdaContext: () => injectLambdaContext(powertools, { resetKeys: true, logEvent: false }),
};

/** An error that was logged already; it keeps only the original's name, for whatever logs it next. */
class ReportedFailure extends Error {
  constructor(name: string) {
    super(`${name}; logged with its details`);
    this.name = name;
  }
}

/**
 * Logs `error` and answers an error to throw instead, carrying only its name. For handlers whose
 * failures escape to the Lambda runtime (events, schedules): the runtime logs a thrown error
 * with its message and every enumerable field.
 */
export function reportFailure<M extends string>(message: LiteralMessage<M>, error: unknown, fields?: LogFields): Error {
  const logged = loggableError(error);
  logger.error(message, { ...fields, error: logged });
  return new ReportedFailure(logged.name);
}
