/**
 * What the realistic DynamoDB assumes of the real one, in one place (docs/data-model.md#a-dynamodb-that-conflicts-like-the-real-one).
 *
 * Latency: AWS states "single-digit millisecond" service-side latency at any scale; SDK-side
 * in-region figures commonly seen are about 2–4 ms at the median for reads and writes with a
 * tail of about 3–4x at p99, and transactions (two phases, prepare and commit, over every item's
 * partition) at about 2–3x a single write. Each operation's added time is log-normal with the
 * median and p99 below (1 ms of it on the wire each way). DynamoDB Local's own time comes on
 * top, so the whole is slower than AWS.
 *
 * Conflicts, as AWS documents transaction conflict handling:
 * - a PutItem, UpdateItem or DeleteItem of an item that an ongoing TransactWriteItems includes
 *   fails with TransactionConflictException;
 * - a TransactWriteItems that includes an item of another ongoing TransactWriteItems is cancelled
 *   with the reason TransactionConflict at that item;
 * - a TransactGetItems that includes an item of an ongoing TransactWriteItems, BatchWriteItem,
 *   PutItem, UpdateItem or DeleteItem is cancelled the same way;
 * - (assumed, not documented in detail) a BatchWriteItem request for an item of an ongoing
 *   transaction comes back in UnprocessedItems, as a throttled one does.
 * An operation is ongoing from its arrival until DynamoDB Local has answered it: its simulated
 * service time, then Local's own (Local applies it at the end, so plain reads meanwhile see the
 * committed state, as in AWS). The window is longer than AWS's by Local's time: the simulation
 * errs towards conflicts.
 * Plain reads (GetItem, Query, Scan, BatchGetItem) read committed data and never conflict.
 *
 * Throughput: every partition serves at most 1,000 write capacity units a second (AWS's
 * per-partition limit, which adaptive capacity cannot lift for one partition key). A write costs
 * one unit per started KiB of the item, estimated from the request's item or key and values;
 * transactional writes cost two. A partition key is taken as one partition, the hottest case
 * (adaptive capacity isolates a hot key to a partition of its own). The burst bucket holds one
 * second of units. Past it, a plain write fails with ProvisionedThroughputExceededException, a
 * transaction is cancelled with ThrottlingError at the item, a batch returns the item unprocessed.
 * Reads are not limited (3,000 read units a second per partition is far from what the service does).
 */

export interface LatencyShape {
  p50Ms: number;
  p99Ms: number;
}

export type OperationClass = 'read' | 'write' | 'transaction' | 'batch';

export const AWS_LIKE_LATENCY: Record<OperationClass, LatencyShape> = {
  read: { p50Ms: 3, p99Ms: 10 },
  write: { p50Ms: 4, p99Ms: 14 },
  transaction: { p50Ms: 9, p99Ms: 30 },
  batch: { p50Ms: 6, p99Ms: 20 },
};

/** Write capacity units a partition serves per second. */
export const PARTITION_WRITE_UNITS_PER_SECOND = 1_000;

/** Bytes a write capacity unit covers. */
export const WRITE_UNIT_BYTES = 1_024;
