import { ApiError } from '#lib/errors';
import { jsonResponse } from '#lib/http/json-response';
import { logger } from '#lib/http/logger';
import type { ApiMiddleware } from '#lib/http/types';

/**
 * Turns an ApiError into its status and JSON body; anything else becomes 500 internal_error,
 * logged with the request ID, its text and stack kept out of the response.
 */
export function errorResponses(): ApiMiddleware {
  return {
    onError: async (request) => {
      const error = request.error;
      const known = error instanceof ApiError ? error : undefined;
      if (!known) logger.error('unexpected error', error as Error);
      const answer = known ?? new ApiError('internal_error');
      const { ok: _ok, ...members } = answer.toJSON();
      request.response = jsonResponse(answer.status, members, request.context.requestId, { ...answer.headers });
    },
  };
}
