import { STRIPE_CHECKIN_LIMIT } from '../lib/payments/rules/stripe-call-limit';
import { DEFAULT_RESERVED_CONCURRENCY } from './function-concurrency';
import type { RouteClass, StageRoute } from './stage-routes';

/** Steady-state requests per second and burst (the token bucket's size), as API Gateway takes them. */
export interface Throttle {
  rateLimit: number;
  burstLimit: number;
}

/**
 * What one deployment sustains on a public route (docs/deployment.md#fair-share-between-tenants):
 * the instances reserved for its function over the time an instance spends on one request. A
 * free check-in takes under 0.1 s with AWS-like DynamoDB latency (docs/benchmarks.md: p99 under
 * 70 ms, plus Lambda's own few milliseconds); paid check-ins wait for Stripe (about 1 s) but are
 * at most STRIPE_CHECKIN_LIMIT of them a second (lib/payments/rules/stripe-call-limit.ts), holding
 * that many instances.
 */
export const PUBLIC_CAPACITY: PublicCapacity = {
  instancesPerFunction: DEFAULT_RESERVED_CONCURRENCY.perFunction.public,
  secondsPerRequest: 0.1,
  paidCheckinsPerSecond: (STRIPE_CHECKIN_LIMIT.limit * 1000) / STRIPE_CHECKIN_LIMIT.windowMs,
  secondsPerPaidCheckin: 1,
};

export interface PublicCapacity {
  instancesPerFunction: number;
  secondsPerRequest: number;
  paidCheckinsPerSecond: number;
  secondsPerPaidCheckin: number;
}

/** Requests per second the public function sustains: the instances not waiting for Stripe, over the time per request. */
export function publicRequestsPerSecond(capacity: PublicCapacity = PUBLIC_CAPACITY): number {
  const waitingForStripe = capacity.paidCheckinsPerSecond * capacity.secondsPerPaidCheckin;
  return Math.floor((capacity.instancesPerFunction - waitingForStripe) / capacity.secondsPerRequest);
}

/**
 * The stage's default: the limit of every route without one of its own, and the ceiling of the
 * per-route limits below (the stack refuses a route limit above it).
 */
export const DEFAULT_STAGE_THROTTLE: Throttle = { rateLimit: 2000, burstLimit: 4000 };

/**
 * Each route's own limit, by class (docs/deployment.md#fair-share-between-tenants gives the reasoning):
 * - public: 400/s, burst 800 on each of the four public route keys (two routes, two preflights):
 *   a little over half of what the public function sustains (publicRequestsPerSecond, 750/s), so
 *   that slower requests (selfies, cold starts) still find an instance, and twice one tenant's
 *   share (lib/rate-limits/rules/tenant-share.ts), so one tenant's announcement leaves the others
 *   at least half the route. Stripe is protected where it is called, not here.
 * - server: 50/s, burst 100 per route key: 50 API keys at their own limit of 1/s on one route.
 * - webhook: 50/s, burst 100: twice the paid check-ins' limit, since a check-in brings Stripe events.
 * - link (an email's one-click unsubscribe): 10/s, burst 20; a person clicks it once, a mail
 *   provider posts it once.
 * - unmatched (ANY per known path, $default): 10/s, burst 20; they answer only 404 and 405.
 */
export const DEFAULT_ROUTE_THROTTLES: Record<RouteClass, Throttle> = {
  public: { rateLimit: 400, burstLimit: 800 },
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
