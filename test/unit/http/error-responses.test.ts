import { DomainError, invalidField } from '#lib/platform/domain-error';
import { ApiError, ERROR_CATALOG } from '#lib/http/errors';
import { errorResponses } from '#lib/http/error-responses';
import { IdempotentReplay } from '#lib/http/idempotency';
import { logger } from '#lib/platform/logger';
import { CorruptItemError } from '#lib/platform/table/store-errors';
import { apiEvent, apiRequest, bodyOf, runOnError } from './request-builders';

/** The answer errorResponses gives to a request that failed with `error`. */
async function answerTo(error: unknown) {
  const request = apiRequest(apiEvent(), { requestId: 'req-42' });
  await runOnError(errorResponses(), request, error);
  if (!request.response) throw new Error('errorResponses left the request without an answer');
  return { statusCode: request.response.statusCode, headers: request.response.headers, body: bodyOf(request.response) };
}

/** An error as the AWS SDK throws it: a name, and for some a marker that it may be retried. */
function storeError(name: string, members: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(`${name}: simulated`), { name, ...members });
}

afterEach(() => jest.restoreAllMocks());

describe('errorResponses', () => {
  describe('an ApiError', () => {
    it('is answered with its status and body', async () => {
      const answer = await answerTo(new ApiError('invalid_tenant'));

      expect(answer).toEqual({
        statusCode: 400,
        headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-Request-Id': 'req-42' },
        body: {
          ok: false,
          error: 'invalid_tenant',
          message: ERROR_CATALOG.invalid_tenant.message,
          requestId: 'req-42',
        },
      });
    });

    it('keeps its own message, its details and its headers', async () => {
      const error = new ApiError(
        'rate_limit_exceeded',
        'Rate limit of 60 requests per minute exceeded; retry in 3 seconds.',
        {
          details: { limit: 60 },
          headers: { 'Retry-After': '3' },
        },
      );

      const answer = await answerTo(error);

      expect(answer.statusCode).toBe(429);
      expect(answer.headers['Retry-After']).toBe('3');
      expect(answer.body).toEqual({
        ok: false,
        error: 'rate_limit_exceeded',
        message: 'Rate limit of 60 requests per minute exceeded; retry in 3 seconds.',
        limit: 60,
        requestId: 'req-42',
      });
    });
  });

  describe('a DomainError', () => {
    it('is answered through the mapping of its reason, subject included', async () => {
      const answer = await answerTo(invalidField('phone', 'phone must have at most 50 characters.'));

      expect(answer.statusCode).toBe(400);
      expect(answer.body).toEqual({
        ok: false,
        error: 'invalid_field',
        message: 'phone must have at most 50 characters.',
        field: 'phone',
        requestId: 'req-42',
      });
    });

    it('whose code differs from its reason gets the code', async () => {
      const answer = await answerTo(new DomainError('unknown_gallery'));

      expect(answer.statusCode).toBe(404);
      expect(answer.body).toEqual({
        ok: false,
        error: 'gallery_not_found',
        message: ERROR_CATALOG.gallery_not_found.message,
        requestId: 'req-42',
      });
    });
  });

  describe('a store failure that outlasted its retries', () => {
    it.each([
      'ThrottlingException',
      'ProvisionedThroughputExceededException',
      'RequestLimitExceeded',
      'TransactionConflictException',
      'InternalServerError',
      'TimeoutError',
    ])('%s gives 503 storage_unavailable', async (name) => {
      const answer = await answerTo(storeError(name));

      expect(answer.statusCode).toBe(503);
      expect(answer.body).toEqual({
        ok: false,
        error: 'storage_unavailable',
        message: ERROR_CATALOG.storage_unavailable.message,
        requestId: 'req-42',
      });
    });

    it('an SDK error marked retryable gives 503 storage_unavailable', async () => {
      const answer = await answerTo(storeError('SlowDown', { $retryable: { throttling: true } }));

      expect(answer.body.error).toBe('storage_unavailable');
    });

    it('a transaction cancelled by throttling gives 503 storage_unavailable', async () => {
      const error = storeError('TransactionCanceledException', {
        CancellationReasons: [{ Code: 'None' }, { Code: 'ThrottlingError' }],
      });

      const answer = await answerTo(error);

      expect(answer.body.error).toBe('storage_unavailable');
    });

    it('a transaction cancelled by a failed condition is not transient: 500 internal_error', async () => {
      const error = storeError('TransactionCanceledException', {
        CancellationReasons: [{ Code: 'ConditionalCheckFailed' }],
      });

      const answer = await answerTo(error);

      expect(answer.statusCode).toBe(500);
      expect(answer.body.error).toBe('internal_error');
    });
  });

  describe('anything else', () => {
    it.each([
      ['an Error', new Error('store exploded at /var/task/secret-path.js:42')],
      ['a TypeError', new TypeError("Cannot read properties of undefined (reading 'secret-path')")],
      ['a conditional check that no code expected', storeError('ConditionalCheckFailedException')],
      ['a corrupt item read from the table', new CorruptItemError('person', 'secret-path', 'string')],
    ])('%s gives 500 internal_error with the catalogue message only', async (_kind, error) => {
      // Act
      const answer = await answerTo(error);

      // Assess
      expect(answer.statusCode).toBe(500);
      expect(answer.body).toEqual({
        ok: false,
        error: 'internal_error',
        message: ERROR_CATALOG.internal_error.message,
        requestId: 'req-42',
      });
      const text = JSON.stringify(answer);
      expect(text).not.toContain(error.message);
      expect(text).not.toContain('secret-path');
      expect(text).not.toContain(' at ');
    });

    it('something thrown that is not an Error gives 500 internal_error', async () => {
      const answer = await answerTo('a string with secret-path in it');

      expect(answer.statusCode).toBe(500);
      expect(JSON.stringify(answer)).not.toContain('secret-path');
    });

    it('is logged as an unexpected error with its name and the frames of our code, never its text', async () => {
      // Prepare
      const logged = jest.spyOn(logger, 'error');
      const error = new Error('store exploded for ada@example.com');

      // Act
      await answerTo(error);

      // Assess
      expect(logged).toHaveBeenCalledWith('unexpected error', {
        error: expect.objectContaining({
          name: 'Error',
          stack: expect.arrayContaining([expect.stringContaining('error-responses.test.ts')]),
        }),
      });
      expect(JSON.stringify(logged.mock.calls)).not.toContain('ada@example.com');
    });
  });

  describe('an IdempotentReplay', () => {
    it('is answered with the stored status and members, marked Idempotent-Replayed', async () => {
      const replay = new IdempotentReplay({ statusCode: 200, members: { imported: 2, persons: [{ code: 'AB12' }] } });

      const answer = await answerTo(replay);

      expect(answer).toEqual({
        statusCode: 200,
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'X-Request-Id': 'req-42',
          'Idempotent-Replayed': 'true',
        },
        body: { ok: true, imported: 2, persons: [{ code: 'AB12' }], requestId: 'req-42' },
      });
    });

    it('of a refusal is answered as that refusal again', async () => {
      const replay = new IdempotentReplay({
        statusCode: 409,
        members: { error: 'shooting_day_full', message: ERROR_CATALOG.shooting_day_full.message },
      });

      const answer = await answerTo(replay);

      expect(answer.statusCode).toBe(409);
      expect(answer.headers['Idempotent-Replayed']).toBe('true');
      expect(answer.body).toEqual({
        ok: false,
        error: 'shooting_day_full',
        message: ERROR_CATALOG.shooting_day_full.message,
        requestId: 'req-42',
      });
    });
  });
});
