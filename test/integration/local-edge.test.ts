import { CLIENT_LIMIT_ANSWER, ROUTE_THROTTLE_ANSWER } from '../../infra/client-edge-rule';
import { LOCAL_CLIENT_ADDRESS_HEADER } from '../../scripts/local/api-server';
import { LocalEdge, stackEdgeTable } from '../../scripts/local/local-edge';
import { useLocalApi } from '../support/local-api';
import { createCheckinStudio } from '../support/checkin-gallery';

/**
 * The local front with the stack's edge in front of the functions (scripts/local/local-edge.ts):
 * the web ACL's limit per client address, then each route's throttle. Here with a limit of 10
 * requests a minute per address and a route burst of 40, so that ten times the limit is quick to send.
 * Plain fetch: the edge's refusals are AWS WAF's and API Gateway's answers, not the API's own
 * (docs/deployment.md#fair-share-between-tenants), so the OpenAPI check of useLocalApi's call does not apply.
 */
const table = stackEdgeTable();
const CLIENT_LIMIT = 10;
/** The 405 route of the check-in info's path, with a bucket of 5, refilled at 1 a second. */
const SMALL_ROUTE = 'ANY /group-shoot/checkin/{token}';
const edge = new LocalEdge({
  client: { requestsPerWindow: CLIENT_LIMIT, windowSeconds: 60 },
  routes: { ...table.routes, [SMALL_ROUTE]: { ThrottlingRateLimit: 1, ThrottlingBurstLimit: 5 } },
});
const api = useLocalApi({ edge });

interface EdgeAnswer {
  status: number;
  headers: Headers;
  body: unknown;
}

async function readInfo(slug: string, token: string, address: string, method = 'GET'): Promise<EdgeAnswer> {
  const response = await fetch(`${api.url}/group-shoot/checkin/${token}`, {
    method,
    headers: { 'X-Tenant-Slug': slug, [LOCAL_CLIENT_ADDRESS_HEADER]: address },
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}
const defaultApi = useLocalApi({ edge: true });

describe('the local front applies the stack edge', () => {
  it("applies, with edge: true, the default deployment's edge: the stack's route throttles and its rule per address", () => {
    expect(defaultApi.edge?.table).toEqual(stackEdgeTable());
  });

  it('refuses one address at ten times its limit with the web ACL answer, while every other client gets its answers', async () => {
    // Prepare
    const studio = await createCheckinStudio();
    const read = (address: string) => readInfo(studio.slug, studio.token, address);

    // Act: 100 requests of the flooder, and one of each of 20 participants among them.
    const flood: EdgeAnswer[] = [];
    const others: EdgeAnswer[] = [];
    for (let index = 0; index < 10 * CLIENT_LIMIT; index += 1) {
      flood.push(await read('198.51.100.99'));
      if (index % 5 === 0) others.push(await read(`10.4.0.${index + 1}`));
    }

    // Assess
    expect(flood.map((answer) => answer.status)).toEqual([...Array(CLIENT_LIMIT).fill(200), ...Array(90).fill(429)]);
    expect(flood.at(-1)!.body).toEqual(CLIENT_LIMIT_ANSWER.body);
    expect(flood.at(-1)!.headers.get('retry-after')).toBe(CLIENT_LIMIT_ANSWER.headers['Retry-After']);
    expect(others.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(edge.refusals).toEqual({ client: 90, route: 0 });
  });

  it("refuses at the route's throttle, with API Gateway's answer, what many addresses send beyond its burst", async () => {
    const studio = await createCheckinStudio();
    const answers: EdgeAnswer[] = [];
    for (let index = 0; index < 12; index += 1)
      answers.push(await readInfo(studio.slug, studio.token, `10.5.0.${index + 1}`, 'DELETE'));
    // The burst of 5 reaches the function (405); a second's refill at most adds one.
    const reached = answers.filter((answer) => answer.status === 405);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(reached.length + refused.length).toBe(12);
    expect(reached.length).toBeGreaterThanOrEqual(5);
    expect(refused.length).toBeGreaterThanOrEqual(5);
    expect(refused[0]!.body).toEqual(ROUTE_THROTTLE_ANSWER.body);
    expect(edge.refusals.route).toBe(refused.length);
  });
});
