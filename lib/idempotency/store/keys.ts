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
} as const;
