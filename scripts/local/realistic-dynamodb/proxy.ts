import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  AWS_LIKE_LATENCY,
  type LatencyShape,
  type OperationClass,
  PARTITION_WRITE_UNITS_PER_SECOND,
} from './assumptions';
import { logNormalSampler } from './latency';
import { OngoingOperations, keyOf } from './ongoing-operations';
import { PartitionThroughput } from './partition-throughput';
import { type KeySchema, type RequestShape, type TouchedItem, shapeOf, tablesOf } from './request-items';

export interface RealisticDynamoDbOptions {
  /** DynamoDB Local's endpoint. */
  target: string;
  /** Added time per operation class; `none` adds none (conflicts then need truly concurrent calls). */
  latency?: Record<OperationClass, LatencyShape> | 'none';
  partitionWriteUnitsPerSecond?: number;
  random?: () => number;
  now?: () => number;
}

/** What the proxy saw, for tests and the bench. */
export interface RealisticDynamoDbStats {
  calls: Record<string, number>;
  /** Plain writes refused with TransactionConflictException. */
  writeConflicts: number;
  /** Transactions cancelled with TransactionConflict. */
  transactionConflicts: number;
  /** Requests (or batch items) refused for their partition's write capacity. */
  throttled: number;
  /** By item (table, then its key values as DynamoDB JSON): how often it was met ongoing, and refused for its partition's capacity. */
  contendedItems: Record<string, { conflicts: number; throttled: number }>;
}

export interface RealisticDynamoDb {
  endpoint: string;
  stats: RealisticDynamoDbStats;
  stop(): Promise<void>;
}

/** Time on the wire each way, within an operation's sampled latency; the rest is the service's, when the operation is ongoing. */
const NETWORK_MS_EACH_WAY = 1;

/**
 * A DynamoDB that behaves like the real one where DynamoDB Local does not (assumptions.ts):
 * an HTTP proxy in front of Local that adds AWS-like latency, cancels operations that meet an
 * ongoing transaction on one item, and limits each partition's writes. The service and its
 * SDK talk to `endpoint` as they would to DynamoDB; everything admitted is done by Local.
 */
export async function startRealisticDynamoDb(options: RealisticDynamoDbOptions): Promise<RealisticDynamoDb> {
  const random = options.random ?? Math.random;
  const samplers =
    options.latency === 'none'
      ? undefined
      : (Object.fromEntries(
          Object.entries(options.latency ?? AWS_LIKE_LATENCY).map(([name, shape]) => [
            name,
            logNormalSampler(shape, random),
          ]),
        ) as Record<OperationClass, () => number>);
  const ongoing = new OngoingOperations();
  const throughput = new PartitionThroughput(
    options.partitionWriteUnitsPerSecond ?? PARTITION_WRITE_UNITS_PER_SECOND,
    options.now,
  );
  const keySchemas = new KeySchemas(options.target);
  const stats: RealisticDynamoDbStats = {
    calls: {},
    writeConflicts: 0,
    transactionConflicts: 0,
    throttled: 0,
    contendedItems: {},
  };
  const count = (item: TouchedItem, what: 'conflicts' | 'throttled') => {
    const counts = (stats.contendedItems[item.itemId] ??= { conflicts: 0, throttled: 0 });
    counts[what] += 1;
  };
  const target = new URL(options.target);

  const forward = (
    incoming: IncomingMessage,
    body: Buffer,
  ): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const outgoing = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method: incoming.method,
          path: incoming.url,
          headers: { ...incoming.headers, host: target.host, 'content-length': String(body.length) },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 500, headers: response.headers, body: Buffer.concat(chunks) }),
          );
          response.on('error', reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });

  const handle = async (incoming: IncomingMessage, answer: ServerResponse): Promise<void> => {
    const body = await readBody(incoming);
    const operation = String(incoming.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
    stats.calls[operation] = (stats.calls[operation] ?? 0) + 1;
    const parsed = parseJson(body);
    const shape =
      parsed === undefined ? undefined : shapeOf(operation, parsed, await keySchemas.of(tablesOf(operation, parsed)));
    const latency = samplers ? samplers[shape?.operationClass ?? 'read']() : 0;
    const serviceMs = Math.max(0, latency - 2 * NETWORK_MS_EACH_WAY);
    const networkMs = (latency - serviceMs) / 2;
    await sleep(networkMs);

    const refusal = shape ? refusalOf(shape) : undefined;
    if (refusal) {
      await sleep(serviceMs + networkMs);
      sendJson(answer, 400, refusal);
      return;
    }
    const admitted =
      shape?.conflictRule === 'batchWrite'
        ? admitBatch(shape, parsed)
        : { body, unprocessed: {} as Record<string, unknown[]>, release: shape ? ongoing.hold(shape) : () => {} };
    let response: Awaited<ReturnType<typeof forward>> | undefined;
    try {
      await sleep(serviceMs);
      if (admitted.body !== undefined) response = await forward(incoming, admitted.body);
    } finally {
      admitted.release();
    }
    await sleep(networkMs);
    if (response === undefined) {
      sendJson(answer, 200, { UnprocessedItems: admitted.unprocessed });
      return;
    }
    if (Object.keys(admitted.unprocessed).length > 0 && response.status === 200) {
      const local = JSON.parse(response.body.toString('utf8'));
      sendJson(answer, 200, {
        ...local,
        UnprocessedItems: mergeUnprocessed(local.UnprocessedItems ?? {}, admitted.unprocessed),
      });
      return;
    }
    answer.writeHead(response.status, response.headers);
    answer.end(response.body);
  };

  /** The answer DynamoDB gives an operation that meets an ongoing one or a full partition, if any. */
  const refusalOf = (shape: RequestShape): Record<string, unknown> | undefined => {
    if (shape.conflictRule === 'batchWrite' || shape.items.length === 0) return undefined;
    const conflicting = ongoing.conflicts(shape);
    for (const item of shape.items) if (conflicting.has(item.index)) count(item, 'conflicts');
    if (shape.conflictRule === 'plainWrite' && conflicting.size > 0) {
      stats.writeConflicts += 1;
      return error('TransactionConflictException', 'Transaction is ongoing for the item');
    }
    if (conflicting.size > 0) {
      stats.transactionConflicts += 1;
      return cancelled(shape, (item) =>
        conflicting.has(item.index)
          ? { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' }
          : undefined,
      );
    }
    const short = throughput.take(shape.items);
    if (short.size === 0) return undefined;
    stats.throttled += 1;
    for (const item of shape.items) if (short.has(item.partitionId) && item.writeUnits > 0) count(item, 'throttled');
    if (shape.conflictRule === 'plainWrite') {
      return error(
        'ProvisionedThroughputExceededException',
        'The level of configured provisioned throughput for one or more partitions was exceeded.',
      );
    }
    return cancelled(shape, (item) =>
      short.has(item.partitionId) && item.writeUnits > 0
        ? { Code: 'ThrottlingError', Message: 'Throughput exceeds the current capacity for one or more partitions.' }
        : undefined,
    );
  };

  /** A batch's requests one by one: those meeting an ongoing transaction or a full partition come back unprocessed. */
  const admitBatch = (shape: RequestShape, parsed: any) => {
    const conflicting = ongoing.conflicts(shape);
    const refused = new Set<TouchedItem>();
    for (const item of shape.items) {
      if (conflicting.has(keyOf(shape, item)) || throughput.take([item]).size > 0) refused.add(item);
    }
    for (const item of refused) {
      const conflicted = conflicting.has(keyOf(shape, item));
      count(item, conflicted ? 'conflicts' : 'throttled');
      if (!conflicted) stats.throttled += 1;
    }
    const unprocessed: Record<string, unknown[]> = {};
    const kept: Record<string, unknown[]> = {};
    for (const item of shape.items) {
      const { table, position } = item.batchPlace!;
      const request = parsed.RequestItems[table][position];
      (refused.has(item) ? unprocessed : kept)[table] = [
        ...((refused.has(item) ? unprocessed : kept)[table] ?? []),
        request,
      ];
    }
    const release = ongoing.hold(shape, (item) => !refused.has(item));
    const body =
      Object.keys(kept).length === 0 ? undefined : Buffer.from(JSON.stringify({ ...parsed, RequestItems: kept }));
    return { body, unprocessed, release };
  };

  const server = createServer((incoming, answer) => {
    handle(incoming, answer).catch((failure: Error) => {
      if (!answer.headersSent) sendJson(answer, 500, error('InternalServerError', failure.message));
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stats,
    stop: async () => {
      keySchemas.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Each table's key schema, asked of Local once (concurrent first calls share the question). */
class KeySchemas {
  private readonly known = new Map<string, Promise<KeySchema | undefined>>();
  private readonly client: DynamoDBClient;

  constructor(endpoint: string) {
    this.client = new DynamoDBClient({
      endpoint,
      region: 'local',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
  }

  async of(tables: string[]): Promise<ReadonlyMap<string, KeySchema>> {
    const schemas = new Map<string, KeySchema>();
    for (const table of tables) {
      if (!this.known.has(table)) this.known.set(table, this.describe(table));
      const schema = await this.known.get(table);
      if (schema) schemas.set(table, schema);
      else this.known.delete(table); // not there yet: asked again next time
    }
    return schemas;
  }

  private async describe(table: string): Promise<KeySchema | undefined> {
    const described = await this.client.send(new DescribeTableCommand({ TableName: table })).catch(() => undefined);
    const schema = described?.Table?.KeySchema ?? [];
    if (schema.length === 0) return undefined;
    return [...schema]
      .sort((a, b) => (a.KeyType === 'HASH' ? -1 : b.KeyType === 'HASH' ? 1 : 0))
      .map((key) => key.AttributeName!);
  }

  close(): void {
    this.client.destroy();
  }
}

function error(type: string, message: string): Record<string, unknown> {
  return { __type: `com.amazonaws.dynamodb.v20120810#${type}`, message };
}

function cancelled(
  shape: RequestShape,
  reasonAt: (item: TouchedItem) => { Code: string; Message: string } | undefined,
): Record<string, unknown> {
  const reasons = shape.items.map((item) => reasonAt(item) ?? { Code: 'None' });
  return {
    __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
    Message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((reason) => reason.Code).join(', ')}]`,
    CancellationReasons: reasons,
  };
}

function mergeUnprocessed(a: Record<string, unknown[]>, b: Record<string, unknown[]>): Record<string, unknown[]> {
  const merged: Record<string, unknown[]> = { ...a };
  for (const [table, requests] of Object.entries(b)) merged[table] = [...(merged[table] ?? []), ...requests];
  return merged;
}

function sendJson(answer: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  answer.writeHead(status, {
    'content-type': 'application/x-amz-json-1.0',
    'content-length': Buffer.byteLength(text),
    'x-amzn-requestid': randomUUID(),
  });
  answer.end(text);
}

function readBody(incoming: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => resolve(Buffer.concat(chunks)));
    incoming.on('error', reject);
  });
}

function parseJson(body: Buffer): any {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
