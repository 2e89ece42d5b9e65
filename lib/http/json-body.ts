import httpJsonBodyParser from '@middy/http-json-body-parser';
import { MAX_BODY_BYTES } from '#lib/config';
import { ApiError } from '#lib/errors';
import type { ApiMiddleware } from '#lib/http/types';

// disableContentTypeCheck exists in the middleware but not in its published typings.
const parser = httpJsonBodyParser({ disableContentTypeCheck: true } as Parameters<typeof httpJsonBodyParser>[0]);

/**
 * Parses the JSON body whatever its Content-Type (integrators send JSON with all sorts of
 * headers). The body must be one JSON object of at most MAX_BODY_BYTES: larger gives 413
 * payload_too_large, anything else that is not an object gives 400 invalid_json.
 */
export function jsonBody(): ApiMiddleware {
  return {
    before: async (request) => {
      const raw = request.event.body;
      if (typeof raw !== 'string' || raw.length === 0) {
        throw new ApiError('invalid_json', 'A JSON object is required as the request body.');
      }
      const bytes = request.event.isBase64Encoded ? Math.floor((raw.length * 3) / 4) : Buffer.byteLength(raw, 'utf8');
      if (bytes > MAX_BODY_BYTES) {
        throw new ApiError('payload_too_large', `The request body exceeds ${MAX_BODY_BYTES} bytes.`);
      }
      try {
        await parser.before?.(request as never);
      } catch {
        throw new ApiError('invalid_json');
      }
      const parsed = request.event.body;
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        throw new ApiError('invalid_json', 'The request body must be a JSON object.');
      }
    },
  };
}
