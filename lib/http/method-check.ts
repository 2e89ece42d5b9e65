import { ApiError } from '#lib/http/errors';
import { type Route, routesAtPath } from '#lib/http/routes';
import type { ApiEvent, ApiMiddleware } from '#lib/http/types';

/** The request path without the stage segment (`/v1/groupshoot/x/days` → `/groupshoot/x/days`). */
export function pathWithinStage(event: ApiEvent): string {
  const path = event.rawPath ?? event.requestContext?.http?.path ?? '/';
  const stage = event.requestContext?.stage;
  if (stage && stage !== '$default' && (path === `/${stage}` || path.startsWith(`/${stage}/`))) {
    return path.slice(stage.length + 1) || '/';
  }
  return path;
}

/**
 * Matches the request against the route table: 404 not_found for a path no route has,
 * 405 method_not_allowed (with `Allow`) for another method on a known path. `served` are the
 * routes this function answers; the catch-all function serves none and so always refuses.
 */
export function methodCheck(served: readonly Route[]): ApiMiddleware {
  const servedIds = new Set(served.map((route) => route.id));
  return {
    before: async (request) => {
      const method = request.event.requestContext?.http?.method?.toUpperCase() ?? '';
      const matches = routesAtPath(pathWithinStage(request.event));
      if (matches.length === 0) throw new ApiError('not_found');
      const match = matches.find(({ route }) => route.method === method);
      if (!match) {
        const allowed = [...new Set(matches.map(({ route }) => route.method))].sort().join(', ');
        throw new ApiError('method_not_allowed', `Method ${method} is not allowed here; allowed: ${allowed}.`, {
          headers: { Allow: allowed },
        });
      }
      // A route served by another function reaching this one is a wiring fault: answer as unknown.
      if (!servedIds.has(match.route.id)) throw new ApiError('not_found');
      request.context.route = match.route;
      request.context.pathParameters = match.pathParameters;
    },
  };
}
