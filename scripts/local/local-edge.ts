import {
  CLIENT_LIMIT_ANSWER,
  type ClientEdgeRule,
  DEFAULT_CLIENT_EDGE_RULE,
  ROUTE_THROTTLE_ANSWER,
} from '../../infra/client-edge-rule';
import {
  DEFAULT_ROUTE_THROTTLES,
  DEFAULT_STAGE_THROTTLE,
  type RouteThrottleSettings,
  routeThrottleSettings,
} from '../../infra/route-throttles';
import { stageRoutes } from '../../infra/stage-routes';

/** The edge of a deployment: each route key's throttle, and the limit per client address in front of them. */
export interface EdgeTable {
  routes: Record<string, RouteThrottleSettings>;
  client: ClientEdgeRule;
}

/** The default deployment's edge, from the modules the stack builds its stage and web ACL from. */
export function stackEdgeTable(): EdgeTable {
  return {
    routes: routeThrottleSettings(stageRoutes(), DEFAULT_ROUTE_THROTTLES, DEFAULT_STAGE_THROTTLE),
    client: DEFAULT_CLIENT_EDGE_RULE,
  };
}

/** Which layer of the edge refused a request: the per-address rule (the web ACL) or the route's throttle (API Gateway). */
export type EdgeLayer = 'client' | 'route';

export type EdgeVerdict = { admitted: true } | { admitted: false; layer: EdgeLayer; answer: EdgeAnswer };

export interface EdgeAnswer {
  status: number;
  body: unknown;
  headers?: Readonly<Record<string, string>>;
}

interface Bucket {
  tokens: number;
  updatedMs: number;
}

/**
 * The edge as the default deployment has it, in front of the local API: first AWS WAF's rate
 * rule per client address (every request the address sent within the window counts, refused
 * ones too, so a flooder stays refused while it floods), then API Gateway's token bucket per
 * route key (rate per second, burst as its size), which only admitted requests reach. Exact
 * where AWS WAF is approximate: WAF acts within about 30 s of a breach (docs/deployment.md).
 */
export class LocalEdge {
  readonly refusals: Record<EdgeLayer, number> = { client: 0, route: 0 };
  /** Per address: requests sent in each second (by Unix second) within the window. */
  private readonly sent = new Map<string, Map<number, number>>();
  private readonly buckets = new Map<string, Bucket>();

  constructor(readonly table: EdgeTable = stackEdgeTable()) {}

  /** Whether a request of `address` to `routeKey` at `nowMs` passes the edge; a refusal with the edge's answer. */
  admit(routeKey: string, address: string, nowMs: number): EdgeVerdict {
    if (!this.withinClientRule(address, nowMs)) return this.refuse('client', CLIENT_LIMIT_ANSWER);
    if (!this.takeRouteToken(routeKey, nowMs)) return this.refuse('route', ROUTE_THROTTLE_ANSWER);
    return { admitted: true };
  }

  private refuse(layer: EdgeLayer, answer: EdgeAnswer): EdgeVerdict {
    this.refusals[layer] += 1;
    return { admitted: false, layer, answer };
  }

  private withinClientRule(address: string, nowMs: number): boolean {
    const { requestsPerWindow, windowSeconds } = this.table.client;
    const second = Math.floor(nowMs / 1000);
    const perSecond = this.sent.get(address) ?? new Map<number, number>();
    perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
    this.sent.set(address, perSecond);
    let inWindow = 0;
    for (const [sentAt, count] of perSecond) {
      if (sentAt <= second - windowSeconds) perSecond.delete(sentAt);
      else inWindow += count;
    }
    return inWindow <= requestsPerWindow;
  }

  private takeRouteToken(routeKey: string, nowMs: number): boolean {
    const throttle = this.table.routes[routeKey];
    if (!throttle) throw new Error(`The stage has no route ${routeKey}`);
    const { ThrottlingRateLimit: rate, ThrottlingBurstLimit: burst } = throttle;
    const bucket = this.buckets.get(routeKey) ?? { tokens: burst, updatedMs: nowMs };
    bucket.tokens = Math.min(burst, bucket.tokens + ((nowMs - bucket.updatedMs) / 1000) * rate);
    bucket.updatedMs = nowMs;
    this.buckets.set(routeKey, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }
}
