import { unmatchedRoute } from '#lib/http/endpoint';

/** Serves API Gateway's `$default` and per-path `ANY` routes: 404 not_found or 405 method_not_allowed. */
export const handler = unmatchedRoute();
