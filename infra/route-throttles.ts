import type { RouteClass, StageRoute } from './stage-routes';

/** Steady-state requests per second and burst (the token bucket's size), as API Gateway takes them. */
export interface Throttle {
  rateLimit: number;
  burstLimit: number;
}

/**
 * The stage's default: the limit of every route without one of its own, and the ceiling of the
 * per-route limits below (the stack refuses a route limit above it).
 */
export const DEFAULT_STAGE_THROTTLE: Throttle = { rateLimit: 200, burstLimit: 400 };

/**
 * Each route's own limit, by class (docs/deployment.md#fair-share-between-tenants gives the reasoning):
 * - public: 25/s, burst 50 on each of the four public route keys (two routes, two preflights), so
 *   100/s for the public routes together, half the stage default; check-ins at 25/s keep the
 *   Stripe calls they make far below Stripe's 100 operations per second of a live account.
 * - server: 50/s, burst 100 per route key: 50 API keys at their own limit of 1/s on one route.
 * - webhook: 50/s, burst 100: twice the check-in rate, since a check-in brings Stripe events.
 * - link (an email's one-click unsubscribe): 10/s, burst 20; a person clicks it once, a mail
 *   provider posts it once.
 * - unmatched (ANY per known path, $default): 10/s, burst 20; they answer only 404 and 405.
 */
export const DEFAULT_ROUTE_THROTTLES: Record<RouteClass, Throttle> = {
  public: { rateLimit: 25, burstLimit: 50 },
  server: { rateLimit: 50, burstLimit: 100 },
  webhook: { rateLimit: 50, burstLimit: 100 },
  link: { rateLimit: 10, burstLimit: 20 },
  unmatched: { rateLimit: 10, burstLimit: 20 },
};

/** CloudFormation's RouteSettings of one route. */
export interface RouteThrottleSettings {
  ThrottlingRateLimit: number;
  ThrottlingBurstLimit: number;
}

/**
 * The stage's RouteSettings: every route keyed by its route key, with its class's limit. Throws
 * when a limit is not positive, is above the stage default, or when the public routes together
 * could take more than the stage default.
 */
export function routeThrottleSettings(
  routes: readonly StageRoute[],
  throttles: Record<RouteClass, Throttle>,
  stage: Throttle,
): Record<string, RouteThrottleSettings> {
  for (const [routeClass, throttle] of Object.entries(throttles)) {
    const { rateLimit, burstLimit } = throttle;
    if (!(rateLimit > 0) || !Number.isInteger(burstLimit) || burstLimit < 1) {
      throw new Error(
        `Throttle of ${routeClass} routes: rateLimit must be above 0 and burstLimit a whole number of at least 1.`,
      );
    }
    if (rateLimit > stage.rateLimit || burstLimit > stage.burstLimit) {
      throw new Error(
        `Throttle of ${routeClass} routes (${rateLimit}/s, burst ${burstLimit}) is above the stage's (${stage.rateLimit}/s, burst ${stage.burstLimit}); raise the stage's first.`,
      );
    }
  }
  const publicRoutes = routes.filter((route) => route.routeClass === 'public').length;
  const publicTotal = {
    rateLimit: publicRoutes * throttles.public.rateLimit,
    burstLimit: publicRoutes * throttles.public.burstLimit,
  };
  if (publicTotal.rateLimit > stage.rateLimit || publicTotal.burstLimit > stage.burstLimit) {
    throw new Error(
      `The ${publicRoutes} public routes together (${publicTotal.rateLimit}/s, burst ${publicTotal.burstLimit}) may not exceed the stage's ${stage.rateLimit}/s, burst ${stage.burstLimit}.`,
    );
  }
  return Object.fromEntries(
    routes.map((route) => {
      const { rateLimit, burstLimit } = throttles[route.routeClass];
      return [route.key, { ThrottlingRateLimit: rateLimit, ThrottlingBurstLimit: burstLimit }];
    }),
  );
}
