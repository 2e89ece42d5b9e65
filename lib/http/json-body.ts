import httpJsonBodyParser from '@middy/http-json-body-parser';
import { MAX_BODY_BYTES } from '#lib/platform/config';
import { ApiError } from '#lib/http/errors';
import type { ApiMiddleware } from '#lib/http/types';

// disableContentTypeCheck exists in the middleware but not in its published typings.
const parser = httpJsonBodyParser({ disableContentTypeCheck: true } as Parameters<typeof httpJsonBodyParser>[0]);

/** No body of this API nests deeper; much deeper ones would overflow recursive code (hashing, validation). */
const MAX_NESTING_DEPTH = 32;

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
      const bytes = Buffer.byteLength(raw, request.event.isBase64Encoded ? 'base64' : 'utf8'); // base64: the decoded size, padding counted
      if (bytes > MAX_BODY_BYTES) {
        throw new ApiError('payload_too_large', `The request body exceeds ${MAX_BODY_BYTES} bytes.`);
      }
      const text = request.event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
      if (nestingDepth(text) > MAX_NESTING_DEPTH) {
        throw new ApiError('invalid_json', `The request body is nested deeper than ${MAX_NESTING_DEPTH} levels.`);
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

/** The deepest nesting of arrays and objects in JSON text, counted without recursion (strings skipped). */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') deepest = Math.max(deepest, ++depth);
    else if (char === '}' || char === ']') depth -= 1;
  }
  return deepest;
}
