/**
 * The edge's limit per client address: the rate rule of the API front's web ACL
 * (api-front-web-acl-stack.ts) and of the local front (scripts/local/local-edge.ts), one source
 * of both. Pure data, so that the local server reads it without loading the CDK.
 */
export interface ClientEdgeRule {
  /** Requests one address may send within any window before the rest of the window is refused. */
  requestsPerWindow: number;
  /** The window AWS WAF looks back over, in seconds (60, 120, 300 or 600). */
  windowSeconds: 60 | 120 | 300 | 600;
}

/**
 * 1,000 requests a minute from one address (docs/deployment.md#api-front-cloudfront-with-aws-waf):
 * a company of 300 behind one NAT address can load the page, check in and poll within the same
 * minute (about three requests each) and meets the application's own limits, with their
 * messages, first; a flood of 200 requests a second is refused after 5 seconds. A minute, not
 * five, so that a flooder's allowance is small beside the public routes' burst.
 */
export const DEFAULT_CLIENT_EDGE_RULE: ClientEdgeRule = { requestsPerWindow: 1000, windowSeconds: 60 };

/** What the edge answers a client over its limit, in the API's error shape. */
export const CLIENT_LIMIT_ANSWER = {
  status: 429,
  body: {
    ok: false,
    error: 'rate_limit_exceeded',
    message: 'Too many requests from this address; retry in a minute.',
  },
  /** Readable by check-in pages on any origin, like the API's own answers. */
  headers: { 'Retry-After': '60', 'Access-Control-Allow-Origin': '*' },
} as const;

/** What API Gateway answers a request over its route's throttle (not the API's shape: no function ran). */
export const ROUTE_THROTTLE_ANSWER = { status: 429, body: { message: 'Too Many Requests' } } as const;
