import type { Template } from 'aws-cdk-lib/assertions';
import { type Route, UNMATCHED_ROUTE_HANDLER, pathsOf, routes } from '#lib/http/routes';
import { PHOTO_INGEST_HANDLER, RETENTION_PLANNER_HANDLER } from '#lib/http/handlers';
import { nagFindings, unbundledStack } from './unbundled-stack';
import { PUBLIC_CAPACITY, publicRequestsPerSecond } from '../../infra/route-throttles';

type RouteSettings = Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }>;

/** The documented defaults (docs/deployment.md#fair-share-between-tenants), per route key. */
const DOCUMENTED_THROTTLES = {
  public: { ThrottlingRateLimit: 400, ThrottlingBurstLimit: 800 },
  server: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
  webhook: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
  link: { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 },
  unmatched: { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 },
};
/** The documented reserved concurrency per function. */
const DOCUMENTED_CONCURRENCY = { public: 100, server: 20, webhook: 20, link: 10, unmatched: 10 };

const declaredRoutes = (routes as readonly Route[]).flatMap((route) =>
  pathsOf(route).map((path) => ({ key: `${route.method} ${path}`, route })),
);

function stageOf(template: Template): {
  Properties: { RouteSettings: RouteSettings; DefaultRouteSettings: unknown };
  DependsOn?: string[];
} {
  const [stage] = Object.values(template.findResources('AWS::ApiGatewayV2::Stage'));
  return stage as never;
}

function reservedConcurrencyOf(
  template: Template,
  functionIds: Map<string, string>,
): Record<string, number | undefined> {
  const functions = template.findResources('AWS::Lambda::Function');
  return Object.fromEntries(
    [...functionIds].map(([handler, id]) => [handler, functions[id]!.Properties.ReservedConcurrentExecutions]),
  );
}

describe('per-route throttles on stage v1, with the defaults', () => {
  let built: ReturnType<typeof unbundledStack>;
  let stage: ReturnType<typeof stageOf>;
  beforeAll(() => {
    // Prepare: the stack as deployed by default, not bundled (the code is not under test here).
    built = unbundledStack();
    stage = stageOf(built.template);
  }, 60_000);

  it.each(declaredRoutes.map(({ key, route }) => [key, route.access] as const))(
    'throttles %s as a %s route',
    (key, access) => {
      expect(stage.Properties.RouteSettings[key]).toEqual(DOCUMENTED_THROTTLES[access]);
    },
  );

  it('throttles every catch-all route (ANY per known path, $default) at the 404/405 limit', () => {
    const knownPaths = [...new Set(declaredRoutes.map(({ key }) => key.split(' ')[1]))];
    for (const key of [...knownPaths.map((path) => `ANY ${path}`), '$default']) {
      expect([key, stage.Properties.RouteSettings[key]]).toEqual([key, DOCUMENTED_THROTTLES.unmatched]);
    }
  });

  it('names exactly the routes of the stage, and creates the stage after them', () => {
    const routeResources = built.template.findResources('AWS::ApiGatewayV2::Route');
    const routeKeys = Object.values(routeResources).map((route) => route.Properties.RouteKey as string);
    expect(Object.keys(stage.Properties.RouteSettings).sort()).toEqual(routeKeys.sort());
    expect(stage.DependsOn).toEqual(expect.arrayContaining(Object.keys(routeResources)));
  });

  it('keeps the stage default of 2,000/s, burst 4,000 as the ceiling: no route above it, the public routes together within it', () => {
    expect(stage.Properties.DefaultRouteSettings).toEqual({ ThrottlingRateLimit: 2000, ThrottlingBurstLimit: 4000 });
    const settings = Object.values(stage.Properties.RouteSettings);
    for (const setting of settings) expect(setting.ThrottlingRateLimit).toBeLessThanOrEqual(2000);
    const publicSettings = declaredRoutes
      .filter(({ route }) => route.access === 'public')
      .map(({ key }) => stage.Properties.RouteSettings[key]!);
    expect(publicSettings.reduce((sum, setting) => sum + setting.ThrottlingRateLimit, 0)).toBeLessThanOrEqual(2000);
    expect(publicSettings.reduce((sum, setting) => sum + setting.ThrottlingBurstLimit, 0)).toBeLessThanOrEqual(4000);
  });

  it.each(['POST /group-shoot', 'GET /group-shoot/checkin/{token}'])(
    'admits at least 3,000 requests a minute on %s at its steady rate, a burst of twice that rate, and no more than the public function sustains',
    (key) => {
      const { ThrottlingRateLimit: rate, ThrottlingBurstLimit: burst } = stage.Properties.RouteSettings[key]!;
      expect(rate * 60).toBeGreaterThanOrEqual(3000);
      expect(burst).toBeGreaterThanOrEqual(2 * rate);
      expect(rate).toBeLessThanOrEqual(publicRequestsPerSecond());
    },
  );

  it('sizes the public routes from the reserved public instances and the Stripe limit that holds some of them', () => {
    const reserved = reservedConcurrencyOf(built.template, built.functionIds);
    expect(reserved['checkin/post-group-shoot']).toBe(PUBLIC_CAPACITY.instancesPerFunction);
    // The documented Stripe limit (docs/payments.md#stripe-call-limit): 25 paid check-ins a second.
    expect(PUBLIC_CAPACITY.paidCheckinsPerSecond).toBe(25);
    // 100 instances, 25 of them waiting on Stripe, 0.1 s per request.
    expect(publicRequestsPerSecond()).toBe(750);
  });

  it('reserves concurrency for the server-side functions and the webhook, and caps the public and 404/405 functions', () => {
    const reserved = reservedConcurrencyOf(built.template, built.functionIds);
    for (const route of routes as readonly Route[])
      expect([route.handler, reserved[route.handler]]).toEqual([route.handler, DOCUMENTED_CONCURRENCY[route.access]]);
    expect(reserved[UNMATCHED_ROUTE_HANDLER]).toBe(DOCUMENTED_CONCURRENCY.unmatched);
    // The photo ingest is not behind the API: it runs in the unreserved pool.
    expect(reserved[PHOTO_INGEST_HANDLER]).toBeUndefined();
    // The retention run holds one instance: two runs never overlap.
    expect(reserved[RETENTION_PLANNER_HANDLER]).toBe(1);
    const total = Object.values(reserved).reduce<number>((sum, instances) => sum + (instances ?? 0), 0);
    expect(total).toBeLessThanOrEqual(1000 - 100);
  });

  it('stays clean under cdk-nag AwsSolutions', () => {
    expect(nagFindings(built.stack)).toEqual([]);
  });
});

describe('throttle and concurrency options', () => {
  it('takes other route limits and reservations from the stack props', () => {
    const { template, functionIds } = unbundledStack({
      throttle: { rateLimit: 300, burstLimit: 600 },
      routeThrottles: { public: { rateLimit: 5, burstLimit: 10 }, webhook: { rateLimit: 300, burstLimit: 600 } },
      reservedConcurrency: { perFunction: { webhook: 40 } },
    });
    const settings = stageOf(template).Properties.RouteSettings;
    expect(settings['POST /group-shoot']).toEqual({ ThrottlingRateLimit: 5, ThrottlingBurstLimit: 10 });
    expect(settings['POST /webhooks/stripe']).toEqual({ ThrottlingRateLimit: 300, ThrottlingBurstLimit: 600 });
    expect(settings['GET /groupshoot/{token}/persons']).toEqual(DOCUMENTED_THROTTLES.server);
    const reserved = reservedConcurrencyOf(template, functionIds);
    expect(reserved['payments/stripe-webhook']).toBe(40);
    expect(reserved['checkin/post-group-shoot']).toBe(DOCUMENTED_CONCURRENCY.public);
  });

  it('reserves nothing with reservedConcurrency: false, for accounts with a small concurrency quota', () => {
    const { template, functionIds } = unbundledStack({ reservedConcurrency: false });
    expect(
      Object.values(reservedConcurrencyOf(template, functionIds)).filter((instances) => instances !== undefined),
    ).toEqual([]);
  });

  it('refuses reservations the account quota cannot hold, and names the way out', () => {
    expect(() => unbundledStack({ reservedConcurrency: { accountQuota: 10 } })).toThrow(
      /needs an account quota of at least 661 .*reserveConcurrency=false/,
    );
  });

  it('refuses a route limit above the stage default', () => {
    expect(() => unbundledStack({ routeThrottles: { server: { rateLimit: 2500, burstLimit: 100 } } })).toThrow(
      /server routes .* above the stage's/,
    );
  });

  it('refuses public limits that together exceed the stage default', () => {
    expect(() => unbundledStack({ routeThrottles: { public: { rateLimit: 600, burstLimit: 800 } } })).toThrow(
      /4 public routes together \(2400\/s/,
    );
  });
});
