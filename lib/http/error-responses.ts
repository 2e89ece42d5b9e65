import { DomainError } from '#lib/platform/domain-error';
import { ApiError } from '#lib/http/errors';
import { isTransientStoreError } from '#lib/platform/table/retry';
import { apiErrorOf } from '#lib/http/domain-error-mapping';
import { IdempotentReplay } from '#lib/http/idempotency';
import { jsonResponse } from '#lib/http/json-response';
import { loggableError, logger } from '#lib/platform/logger';
import type { ApiMiddleware } from '#lib/http/types';

/** DynamoDB or S3 still throttled or unreachable after the retries: retryable, nothing was saved. */
function storageUnavailable(error: unknown): ApiError {
  logger.warn('storage unavailable after retries', { error: loggableError(error) });
  return new ApiError('storage_unavailable');
}

function unexpected(error: unknown): ApiError {
  logger.error('unexpected error', { error: loggableError(error) });
  return new ApiError('internal_error');
}

/**
 * Turns an ApiError, or a domain refusal through its one mapping, into its status and JSON body; a store failure that outlasted its retries
 * becomes 503 storage_unavailable; anything else becomes 500 internal_error, logged with the
 * request ID as loggableError() reduces it (never its message or fields), and kept out of the
 * response.
 */
export function errorResponses(): ApiMiddleware {
  return {
    onError: async (request) => {
      const error = request.error;
      if (error instanceof IdempotentReplay) {
        const { statusCode, members } = error.answer;
        request.response = jsonResponse(statusCode, members, request.context.requestId, {
          'Idempotent-Replayed': 'true',
        });
        return;
      }
      const answer =
        error instanceof ApiError
          ? error
          : error instanceof DomainError
            ? apiErrorOf(error)
            : isTransientStoreError(error)
              ? storageUnavailable(error)
              : unexpected(error);
      const { ok: _ok, ...members } = answer.toJSON();
      request.response = jsonResponse(answer.status, members, request.context.requestId, { ...answer.headers });
    },
  };
}
