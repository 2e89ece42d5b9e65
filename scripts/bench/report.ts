import type { AbuseResult } from './abuse';
import type { BundleColdStart } from './cold-start';
import type { ImportComparison } from './import-comparison';
import type { LoadResult } from './load';
import type { EndpointRoundTrips } from './round-trips';
import type { WebhookDeliveryResult } from './webhook-delivery';

/** Everything one bench run measured, as written to bench-results.json. */
export interface BenchResults {
  mode: 'full' | 'smoke';
  startedAt: string;
  machine: { node: string; cpus: number; platform: string };
  settings: {
    roundTripIterations: number;
    coldStartProcesses: number;
    importRows: number;
    importIterations: number;
    loadConnections: number;
    loadRequests: number;
    loadKeys: number;
    abuseSeconds: number;
  };
  roundTrips: EndpointRoundTrips[];
  coldStarts: BundleColdStart[];
  importComparison: ImportComparison;
  load: LoadResult[];
  abuse: AbuseResult;
  webhookDelivery: WebhookDeliveryResult;
}

/** A Markdown table, so the output can be pasted into docs/benchmarks.md as it is. */
function markdownTable(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** The round trips per request as a Markdown table (`--only round-trips` prints it alone). */
export function formatRoundTrips(rows: EndpointRoundTrips[]): string {
  return markdownTable(
    ['Endpoint', 'Calls', 'Depth', 'Floor (calls/depth)', 'At floor', 'Median ms', 'Operations'],
    rows.map((row) => [
      row.endpoint,
      row.failedCalls > 0 ? `${row.calls} (${row.failedCalls} failed, retried)` : row.calls,
      row.depth,
      `${row.floor.calls}/${row.floor.depth}`,
      row.atFloor ? 'yes' : 'no',
      row.medianMilliseconds,
      compactOperations(row.operations),
    ]),
  );
}

/** The three figures as Markdown tables with a heading each. */
export function formatResults(results: BenchResults): string {
  const roundTrips = formatRoundTrips(results.roundTrips);
  const coldStarts = markdownTable(
    ['Bundle', 'Size KB', 'Init ms (median)', 'Ratio to baseline'],
    results.coldStarts.map((row) => [row.bundle, row.sizeKb, row.medianInitMilliseconds, `${row.ratioToBaseline}x`]),
  );
  const imports = results.importComparison;
  const importTable = markdownTable(
    ['Rows', 'Through the API, ms (median)', 'SDK alone, ms (median)', 'Ratio'],
    [[imports.rows, imports.apiMedianMilliseconds, imports.sdkAloneMedianMilliseconds, `${imports.ratio}x`]],
  );
  const load = formatLoad(results.load);
  const { abuse } = results;
  const calmRow = (label: string, figures: AbuseResult['calm']['withoutFlood']) => [
    label,
    figures.requests,
    figures.refused,
    figures.p50Milliseconds,
    figures.p99Milliseconds,
  ];
  const abuseTables = [
    markdownTable(
      [
        'Well-behaved clients (check-ins on another tenant, persons reads)',
        'Requests',
        'Refused (goal 0)',
        'p50 ms',
        'p99 ms',
      ],
      [calmRow('without the flood', abuse.calm.withoutFlood), calmRow('with the flood', abuse.calm.withFlood)],
    ),
    markdownTable(
      [
        'p99 with / without (goal ≤ 1.5x)',
        'Flood requests',
        "Flooder's budget",
        'Admitted',
        'Spots of A taken (goal ≤ budget)',
        'Writes by refused requests (goal 0)',
      ],
      [
        [
          `${abuse.p99Ratio}x`,
          abuse.flooderRequests,
          abuse.flooderBudget,
          abuse.flooderAdmitted,
          abuse.flooderSpots,
          abuse.writesByRefused,
        ],
      ],
    ),
  ].join('\n\n');
  const { settings } = results;
  const { webhookDelivery } = results;
  return [
    `### DynamoDB round trips per request (${settings.roundTripIterations} measured request(s) each)`,
    roundTrips,
    `### Cold start: module initialisation, median of ${settings.coldStartProcesses} fresh processes (goal ≤ 1.3x)`,
    coldStarts,
    `### Import of ${settings.importRows} persons, median of ${settings.importIterations} (goal ≤ 1.5x)`,
    importTable,
    `### Load: ${settings.loadRequests} requests per scenario on ${settings.loadConnections} connections (one per simulated Lambda instance), against the same DynamoDB work alone`,
    load,
    `### Abuse: one client floods POST /group-shoot of gallery A at 10x its check-in budget for ${abuse.durationSeconds} s`,
    abuseTables,
    `### Webhook delivery: ${webhookDelivery.checkins.requests} free check-ins on ${webhookDelivery.checkins.connections} connections, then an import of ${webhookDelivery.import.rows} persons (stream polled every ${webhookDelivery.streamPollMilliseconds} ms when idle, ${webhookDelivery.deliveryConcurrency} deliveries at a time)`,
    webhookTables(webhookDelivery),
  ].join('\n\n');
}

/** The check-in answers without and with delivery, commit-to-delivery latency and its stages, the import. */
function webhookTables({ checkins, import: imported }: WebhookDeliveryResult): string {
  const answers = markdownTable(
    ['Check-in answers', 'p50 ms', 'p99 ms', 'req/s'],
    [
      [
        'without delivery (events written, stream not read)',
        checkins.withoutDelivery.p50Milliseconds,
        checkins.withoutDelivery.p99Milliseconds,
        checkins.withoutDelivery.requestsPerSecond,
      ],
      [
        'with delivery (pipeline running, one subscription to every event)',
        checkins.withDelivery.p50Milliseconds,
        checkins.withDelivery.p99Milliseconds,
        checkins.withDelivery.requestsPerSecond,
      ],
      ['with / without', `${checkins.answerP50Ratio}x`, `${checkins.answerP99Ratio}x`, ''],
    ],
  );
  const { delivery } = checkins;
  const latency = markdownTable(
    [
      'Commit to verified arrival',
      'Events',
      'p50 ms',
      'p95 ms',
      'p99 ms',
      'max ms',
      'p50 / answer p50',
      'p99 / answer p99',
      'Events written / delivered per s',
      'Drain after the last answer, ms',
    ],
    [
      [
        'check-in events (person.created, checkin.completed)',
        delivery.events,
        delivery.p50Milliseconds,
        delivery.p95Milliseconds,
        delivery.p99Milliseconds,
        delivery.maxMilliseconds,
        `${checkins.deliveryToAnswerP50Ratio}x`,
        `${checkins.deliveryToAnswerP99Ratio}x`,
        `${checkins.eventsWrittenPerSecond} / ${checkins.eventsDeliveredPerSecond}`,
        checkins.drainMilliseconds,
      ],
    ],
  );
  const stageRow = (label: string, name: keyof WebhookDeliveryResult['import']['delivery']['stages']) => [
    label,
    delivery.stages[name].p50Milliseconds,
    delivery.stages[name].p99Milliseconds,
    imported.delivery.stages[name].p50Milliseconds,
    imported.delivery.stages[name].p99Milliseconds,
  ];
  const stages = markdownTable(
    ['Stage (from the delivery log)', 'Check-ins p50 ms', 'p99 ms', 'Import p50 ms', 'p99 ms'],
    [
      stageRow('written → delivery recorded (stream read, dispatcher)', 'toDispatch'),
      stageRow('recorded → attempt started (queue, worker reads)', 'toAttempt'),
      stageRow('attempt started → arrived (signing, HTTP)', 'toArrival'),
    ],
  );
  const importTable = markdownTable(
    [
      'Rows',
      'Import through the API, ms',
      'All person.created verified, ms (from the import start)',
      'Ratio',
      'Distinct events',
      'Delivery p50 ms',
      'p99 ms',
    ],
    [
      [
        imported.rows,
        imported.importMilliseconds,
        imported.allDeliveredMilliseconds,
        `${imported.ratio}x`,
        imported.distinctEvents,
        imported.delivery.p50Milliseconds,
        imported.delivery.p99Milliseconds,
      ],
    ],
  );
  return [answers, latency, stages, importTable].join('\n\n');
}

/** `Query, Query, TransactWriteItems × 10, UpdateItem × 2` instead of 14 names. */
function compactOperations(operations: readonly string[]): string {
  const runs: { name: string; times: number }[] = [];
  for (const name of operations) {
    const last = runs.at(-1);
    if (last?.name === name) last.times += 1;
    else runs.push({ name, times: 1 });
  }
  return runs.map((run) => (run.times > 1 ? `${run.name} × ${run.times}` : run.name)).join(', ');
}

/**
 * The load scenarios against the same DynamoDB work alone (goal of issue 30: p50 and p99 ratios
 * at most 1.3x) under the steady load: the functions in process and the API over the local HTTP
 * front; then what one process sustains saturated, and the API under autocannon.
 */
export function formatLoad(rows: BenchResults['load']): string {
  const pair = (figures: { p50Milliseconds: number; p99Milliseconds: number }) =>
    `${figures.p50Milliseconds} / ${figures.p99Milliseconds}`;
  return markdownTable(
    [
      'Scenario',
      'Steady load req/s',
      'DynamoDB alone p50 / p99 ms',
      'Functions in process p50 / p99 ms',
      'ratios p50 / p99 (goal ≤ 1.3x)',
      'API over HTTP p50 / p99 ms',
      'ratios p50 / p99 (goal ≤ 1.3x)',
      'Saturated req/s: alone / in process / HTTP',
      'Autocannon (saturated) p50 / p99 ratios',
    ],
    rows.map((row) => [
      row.scenario,
      row.arrivalRatePerSecond,
      pair(row.dynamoDbAlone),
      pair(row.functionsInProcess),
      `${row.inProcessP50Ratio}x / ${row.inProcessP99Ratio}x`,
      pair(row.api),
      `${row.p50Ratio}x / ${row.p99Ratio}x`,
      `${row.saturated.dynamoDbAlone.requestsPerSecond} / ${row.saturated.functionsInProcess.requestsPerSecond} / ${row.saturated.api.requestsPerSecond}`,
      `${row.autocannonP50Ratio}x / ${row.autocannonP99Ratio}x`,
    ]),
  );
}
