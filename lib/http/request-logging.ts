import { now } from '#lib/platform/clock';
import { logger } from '#lib/platform/logger';
import type { ApiMiddleware, ApiRequest } from '#lib/http/types';

/**
 * Adds the Lambda context and the request ID to every log line of the request, and writes
 * one access line when it ends. Only the route id is logged, never the raw path, the headers or
 * the event: paths carry gallery tokens, headers carry keys, bodies carry personal data.
 */
export function requestLogging(routeId: string): ApiMiddleware[] {
  const startedAt = new WeakMap<object, number>();
  const logCompletion = async (request: ApiRequest) => {
    const started = startedAt.get(request.event) ?? now();
    logger.info('request completed', {
      method: request.event.requestContext?.http?.method,
      status: request.response?.statusCode,
      durationMs: now() - started,
    });
  };
  return [
    logger.lambdaContext(),
    {
      before: async (request) => {
        startedAt.set(request.event, now());
        logger.appendKeys({ requestId: request.context.requestId, route: routeId });
      },
      after: logCompletion,
      onError: logCompletion,
    },
  ];
}
