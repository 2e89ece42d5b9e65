import { randomUUID } from 'node:crypto';
import type { ApiMiddleware, ApiRequest } from '#lib/http/types';

/**
 * First in the chain: takes the request ID from the API Gateway request context and makes
 * sure every response, errors included, carries it in `X-Request-Id` together with the
 * headers collected on the way (rate-limit headers).
 */
export function requestId(): ApiMiddleware {
  const addHeaders = async (request: ApiRequest): Promise<void> => {
    if (!request.response) return;
    request.response.headers = {
      ...request.context.responseHeaders,
      ...request.response.headers,
      'X-Request-Id': request.context.requestId,
    };
  };
  return {
    before: async (request) => {
      request.context.requestId =
        request.event.requestContext?.requestId || request.context.awsRequestId || randomUUID();
      request.context.responseHeaders = {};
      request.context.pathParameters = {};
    },
    after: addHeaders,
    onError: addHeaders,
  };
}
