/**
 * The records of requests made with an Idempotency-Key.
 * Only this feature's stores build these keys (the boundary check holds it); docs/data-model.md
 * documents the access pattern each serves.
 */
/** Idempotency-Key records' partition keys start so (tests and audits find them by it). */
export const IDEMPOTENCY_KEY_PREFIX = 'IDEMPOTENCY#';

export const idempotencyKeys = {
  /** A request made with an Idempotency-Key, by an ID derived from tenant, caller, route and key (lib/idempotency/rules/idempotency-sealing.ts). */
  idempotencyKey: (scopeHash: string) => ({ pk: `${IDEMPOTENCY_KEY_PREFIX}${scopeHash}`, sk: 'IDEMPOTENCY' }),
  /** GSI1 partition of the completed Idempotency-Key records whose request named this gallery (erasure reads it). */
  idempotencyRecordsOfGallery: (tenantId: string, token: string) => `T#${tenantId}#G#${token}#IDEMPOTENCY`,
  /**
   * The GSI1 sort key of a completed record in its gallery's partition: a record whose answer names
   * exactly one person sorts under that person (`~P#<personId>#`), one naming no person and exactly
   * one order under that order (`~O#<orderId>#`), so that erasing one person reads only their
   * records. Any other (an import's answer names many) keeps the bare record ID, which sorts before
   * `~` (it is hex), as every record written before these prefixes does.
   */
  recordInGallery: (scopeHash: string, ids: { personIds: readonly string[]; orderIds: readonly string[] }) => {
    if (ids.personIds.length === 1) return `${recordsOfPerson(ids.personIds[0]!)}${scopeHash}`;
    if (ids.personIds.length === 0 && ids.orderIds.length === 1)
      return `${recordsOfOrder(ids.orderIds[0]!)}${scopeHash}`;
    return scopeHash;
  },
  recordsOfPerson: (personId: string) => recordsOfPerson(personId),
  recordsOfOrder: (orderId: string) => recordsOfOrder(orderId),
} as const;

/** Records of one subject sort from here on; the records of several (and older ones) before it. */
export const SINGLE_SUBJECT_PREFIX = '~';

/** The GSI1 sort-key prefix of the records naming one person alone. */
function recordsOfPerson(personId: string): string {
  return `${SINGLE_SUBJECT_PREFIX}P#${personId}#`;
}

/** The GSI1 sort-key prefix of the records naming one order alone (and no person). */
function recordsOfOrder(orderId: string): string {
  return `${SINGLE_SUBJECT_PREFIX}O#${orderId}#`;
}
