import { Template } from 'aws-cdk-lib/assertions';
import { ApiFrontWebAclStack } from '../../infra/api-front-web-acl-stack';
import { type EdgeTable, LocalEdge, stackEdgeTable } from '../../scripts/local/local-edge';
import { unbundledApp, unbundledStack } from './unbundled-stack';

type RouteSettings = EdgeTable['routes'];

/** The edge the synthesized templates describe: the stage's route settings and the web ACL's rate rule. */
function edgeOfTemplates(): EdgeTable {
  const { template } = unbundledStack();
  const [stage] = Object.values(template.findResources('AWS::ApiGatewayV2::Stage')) as {
    Properties: { RouteSettings: RouteSettings };
  }[];
  const webAcl = new ApiFrontWebAclStack(unbundledApp(), 'WebAcl', {
    env: { account: '123456789012', region: 'us-east-1' },
  });
  const [acl] = Object.values(Template.fromStack(webAcl).findResources('AWS::WAFv2::WebACL')) as {
    Properties: { Rules: { Name: string; Statement: Record<string, any> }[] };
  }[];
  const rate = acl!.Properties.Rules.find((rule) => rule.Name === 'RequestsPerClient')!.Statement.RateBasedStatement;
  return {
    routes: stage!.Properties.RouteSettings,
    client: { requestsPerWindow: rate.Limit, windowSeconds: rate.EvaluationWindowSec },
  };
}

interface Sender {
  address: string;
  routeKey: string;
  /** Milliseconds between two requests. */
  everyMs: number;
}

/** One minute of `senders` through an edge of `table`, in time order: each sender's admitted and refused requests. */
function oneMinute(table: EdgeTable, senders: Sender[]) {
  const edge = new LocalEdge(table);
  const arrivals = senders
    .flatMap((sender, index) =>
      Array.from({ length: Math.floor(60_000 / sender.everyMs) }, (_, n) => ({
        sender: index,
        // Each sender starts at its own offset within its interval, so that arrivals interleave.
        at: 1_700_000_000_000 + n * sender.everyMs + ((index * 7919) % sender.everyMs),
      })),
    )
    .sort((first, second) => first.at - second.at);
  const answers = senders.map(() => ({ admitted: 0, refused: 0 }));
  for (const { sender, at } of arrivals) {
    const { address, routeKey } = senders[sender]!;
    const verdict = edge.admit(routeKey, address, at);
    answers[sender]![verdict.admitted ? 'admitted' : 'refused'] += 1;
  }
  return { answers, refusals: edge.refusals };
}

describe("the default deployment's edge", () => {
  let table: EdgeTable;
  beforeAll(() => {
    table = edgeOfTemplates();
  }, 60_000);

  it("is the local front's edge: the same route throttles and the same rule per client address", () => {
    expect(stackEdgeTable()).toEqual(table);
  });

  it('refuses one address at ten times its limit without reducing what any other client gets', () => {
    // Prepare: 600 participants' addresses checking in every 12 s (50/s together), a steady
    // tenant at 5/s, page loads beside them; the flooder at ten times its limit.
    const { requestsPerWindow, windowSeconds } = table.client;
    const others: Sender[] = [
      ...Array.from({ length: 600 }, (_, index) => ({
        address: `10.1.${Math.floor(index / 250)}.${index % 250}`,
        routeKey: 'POST /group-shoot',
        everyMs: 12_000,
      })),
      { address: '203.0.113.5', routeKey: 'POST /group-shoot', everyMs: 200 },
      { address: '203.0.113.6', routeKey: 'GET /group-shoot/checkin/{token}', everyMs: 100 },
    ];
    const flooder: Sender = {
      address: '198.51.100.66',
      routeKey: 'POST /group-shoot',
      everyMs: (windowSeconds * 1000) / (10 * requestsPerWindow),
    };

    // Act
    const alone = oneMinute(table, others);
    const flooded = oneMinute(table, [...others, flooder]);

    // Assess
    const floodAnswer = flooded.answers.at(-1)!;
    expect(floodAnswer.admitted + floodAnswer.refused).toBeGreaterThanOrEqual(10 * requestsPerWindow - 1);
    expect(floodAnswer.admitted).toBe(requestsPerWindow);
    expect(flooded.answers.slice(0, -1)).toEqual(alone.answers);
    expect(alone.answers.every((answer) => answer.refused === 0)).toBe(true);
    expect(flooded.refusals).toEqual({ client: floodAnswer.refused, route: 0 });
  });

  it("refuses at a route's throttle what comes faster than its burst and rate from many addresses", () => {
    const routeKey = 'POST /group-shoot';
    const { ThrottlingRateLimit: rate, ThrottlingBurstLimit: burst } = table.routes[routeKey]!;
    const edge = new LocalEdge(table);
    const at = 1_700_000_000_000;
    const verdicts = Array.from({ length: burst + 10 }, (_, index) =>
      edge.admit(routeKey, `10.2.0.${index % 250}`, at),
    );
    expect(verdicts.filter((verdict) => verdict.admitted)).toHaveLength(burst);
    expect(edge.refusals).toEqual({ client: 0, route: 10 });
    // A second later the bucket holds `rate` tokens again.
    const later = Array.from({ length: rate + 1 }, () => edge.admit(routeKey, '10.3.0.1', at + 1000));
    expect(later.filter((verdict) => verdict.admitted)).toHaveLength(rate);
  });
});
