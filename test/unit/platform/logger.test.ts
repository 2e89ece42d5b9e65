/**
 * @logLevel DEBUG
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import Stripe from 'stripe';
import { DomainError } from '#lib/platform/domain-error';
import { type LogFields, galleryRef, loggableError, logger, reportFailure } from '#lib/platform/logger';
import { keys } from '../../support/table-keys';

const ROOT = join(__dirname, '..', '..', '..');
const SECRET = 'ada.lovelace@example.com';
const ITEM = {
  pk: { S: keys.person('ten_1', 'galtoken1234567', 'per_1').pk },
  email: { S: SECRET },
  code: { S: 'K7QX' },
};
const metadata = { httpStatusCode: 400, requestId: 'REQ123ABC', attempts: 3, totalRetryDelay: 120 };

/** The JSON lines the logger writes while `act` runs. */
function captureLines(act: () => void): Record<string, unknown>[] {
  const chunks: string[] = [];
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  });
  const errorSpy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  });
  try {
    act();
  } finally {
    spy.mockRestore();
    errorSpy.mockRestore();
  }
  return chunks
    .flatMap((chunk) => chunk.split('\n'))
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
}

describe('loggableError', () => {
  it('keeps what identifies an SDK error and drops the item a failed condition returned', () => {
    // Prepare
    const error = new ConditionalCheckFailedException({
      message: `The conditional request failed for ${SECRET}`,
      $metadata: metadata,
      Item: ITEM,
    });

    // Act
    const logged = loggableError(error);

    // Assess
    expect(logged).toEqual({
      name: 'ConditionalCheckFailedException',
      fault: 'client',
      httpStatusCode: 400,
      serviceRequestId: 'REQ123ABC',
      attempts: 3,
      stack: expect.any(Array),
    });
    expect(JSON.stringify(logged)).not.toMatch(/ada\.lovelace|K7QX|galtoken/);
  });

  it('keeps only the codes of a cancelled transaction, not its items or messages', () => {
    const error = new TransactionCanceledException({
      message: `Transaction cancelled [ConditionalCheckFailed, None] ${SECRET}`,
      $metadata: metadata,
      CancellationReasons: [
        { Code: 'ConditionalCheckFailed', Message: `The conditional request failed ${SECRET}`, Item: ITEM },
        { Code: 'None' },
      ],
    });

    const logged = loggableError(error);

    expect(logged).toEqual(
      expect.objectContaining({
        name: 'TransactionCanceledException',
        cancellationReasons: ['ConditionalCheckFailed', 'None'],
      }),
    );
    expect(JSON.stringify(logged)).not.toMatch(/ada\.lovelace|K7QX|galtoken/);
  });

  it("keeps a Stripe error's type, code, status and request ID, not its message or raw body", () => {
    const error = new Stripe.errors.StripeInvalidRequestError({
      message: `Invalid email address: ${SECRET}`,
      type: 'invalid_request_error',
      code: 'email_invalid',
      param: 'customer_email',
      requestId: 'req_abc123',
      statusCode: 400,
    });

    const logged = loggableError(error);

    expect(logged).toEqual(
      expect.objectContaining({
        type: 'StripeInvalidRequestError',
        code: 'email_invalid',
        httpStatusCode: 400,
        serviceRequestId: 'req_abc123',
      }),
    );
    expect(JSON.stringify(logged)).not.toContain(SECRET);
  });

  it('gives our DomainError its reason, not its message', () => {
    const logged = loggableError(new DomainError('invalid_field', `email ${SECRET} is not an address`));

    expect(logged).toEqual(expect.objectContaining({ name: 'DomainError', code: 'invalid_field' }));
    expect(JSON.stringify(logged)).not.toContain(SECRET);
  });

  it('keeps the frames of our code, without the lines of a message that look like frames', () => {
    const error = new Error(`first line\n    at ${SECRET} (/var/task/index.mjs:1:1)`);

    const logged = loggableError(error);

    expect(logged.stack).toEqual(expect.arrayContaining([expect.stringMatching(/^at .*logger\.test\.ts:\d+:\d+\)$/)]));
    expect(logged.stack!.some((frame) => frame.includes('node_modules'))).toBe(false);
    expect(JSON.stringify(logged)).not.toContain(SECRET);
  });

  it('reduces causes the same way, and names what was thrown when it is not an error', () => {
    const error = new Error('outer', { cause: Object.assign(new Error(SECRET), { name: 'TimeoutError', Item: ITEM }) });

    expect(loggableError(error).cause).toEqual(expect.objectContaining({ name: 'TimeoutError' }));
    expect(JSON.stringify(loggableError(error))).not.toContain(SECRET);
    expect(loggableError(SECRET)).toEqual({ name: 'thrown string' });
  });

  it('redacts a name or code that is not identifier-shaped', () => {
    const error = Object.assign(new Error('x'), { name: SECRET, code: `${SECRET} code` });

    expect(loggableError(error)).toEqual(expect.objectContaining({ name: '[redacted]' }));
    expect(loggableError(error)).not.toHaveProperty('code');
  });
});

describe('logger', () => {
  it('writes the message and the fields of a line as JSON', () => {
    const lines = captureLines(() =>
      logger.warn('something happened', { orderId: 'ord_1', notWritten: 2, gallery: galleryRef('galtoken1234567') }),
    );

    expect(lines).toEqual([
      expect.objectContaining({
        level: 'WARN',
        message: 'something happened',
        orderId: 'ord_1',
        notWritten: 2,
        gallery: expect.stringMatching(/^g_[0-9a-f]{12}$/),
      }),
    ]);
    expect(JSON.stringify(lines)).not.toContain('galtoken1234567');
  });

  it('reduces a raw error and drops unknown fields even when the types are bypassed', () => {
    // Prepare: what a call site could only write with a cast.
    const error = new ConditionalCheckFailedException({ message: 'failed', $metadata: metadata, Item: ITEM });
    const fields = {
      error,
      objectKey: `selfies/ten_1/galtoken1234567/per_1.jpg`,
      email: SECRET,
    } as unknown as LogFields;

    // Act
    const lines = captureLines(() => logger.error('unexpected error', fields));

    // Assess
    expect(lines).toEqual([
      expect.objectContaining({
        message: 'unexpected error',
        error: expect.objectContaining({ name: 'ConditionalCheckFailedException' }),
      }),
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/ada\.lovelace|K7QX|galtoken|objectKey/);
  });

  it('redacts a known field whose value is not identifier-shaped', () => {
    const lines = captureLines(() =>
      logger.info('reservation replaced', {
        orderId: `ord_1 ${SECRET}`,
        counts: { swept: 2, email: SECRET },
      }),
    );

    expect(lines).toEqual([expect.objectContaining({ orderId: '[redacted]', counts: { swept: 2 } })]);
    expect(JSON.stringify(lines)).not.toContain(SECRET);
  });
});

describe('reportFailure', () => {
  it('logs the error reduced and answers one that holds nothing the Lambda runtime could log', () => {
    // Prepare
    const error = new ConditionalCheckFailedException({
      message: `failed for ${SECRET}`,
      $metadata: metadata,
      Item: ITEM,
    });
    let thrown: Error | undefined;

    // Act
    const lines = captureLines(() => {
      thrown = reportFailure('photo object not ingested', error);
    });

    // Assess: the runtime logs a thrown error with its message, stack and every enumerable field.
    expect(lines).toEqual([
      expect.objectContaining({
        message: 'photo object not ingested',
        error: expect.objectContaining({ name: 'ConditionalCheckFailedException' }),
      }),
    ]);
    expect(thrown!.name).toBe('ConditionalCheckFailedException');
    const asTheRuntimeLogsIt = JSON.stringify({
      errorType: thrown!.name,
      errorMessage: thrown!.message,
      stack: thrown!.stack,
      ...thrown,
    });
    expect(`${JSON.stringify(lines)} ${asTheRuntimeLogsIt}`).not.toMatch(/ada\.lovelace|K7QX|galtoken/);
  });
});

describe('the one logger', () => {
  const sourceFiles = (folder: string): string[] =>
    readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? sourceFiles(join(folder, entry.name))
        : entry.name.endsWith('.ts')
          ? [join(folder, entry.name)]
          : [],
    );
  const files = [...sourceFiles('lib'), ...sourceFiles('functions'), ...sourceFiles('scripts')];

  it('is the only module that reaches Powertools: no other can log an error unreduced', () => {
    const importers = files.filter((path) =>
      /from '@aws-lambda-powertools\/logger/.test(readFileSync(join(ROOT, path), 'utf8')),
    );
    expect(importers).toEqual(['lib/platform/logger.ts']);
  });

  it('is the only way the service writes logs: lib/ and functions/ never use the console', () => {
    // A call of the console, not a path that names it (docs/studio-console.md).
    const consoleUsers = files.filter(
      (path) =>
        !path.startsWith('scripts/') && /(?<![\w/-])console\.\w+\(/.test(readFileSync(join(ROOT, path), 'utf8')),
    );
    expect(consoleUsers).toEqual([]);
  });
});
