import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, scrypt } from 'node:crypto';

/**
 * What an Idempotency-Key record may hold: the first answer to the key, sealed so that only a
 * holder of the key can read it (docs/api-reference.md#idempotency-keys). The answer carries
 * status and retry tokens and access codes, which the table otherwise holds only as hashes.
 *
 * The key is stretched with scrypt under its scope (tenant, caller, route), then HKDF-SHA256
 * derives from it two independent values: the record's ID and the AES-256-GCM key of its
 * answer. Someone who reads the table and knows a scope can still guess keys offline (the
 * record ID, and the GCM tag, confirm a guess; no scheme without a server-side secret avoids
 * that), but each guess costs one scrypt of 8 MiB instead of one SHA-256: random keys such as
 * UUIDs are out of reach either way, and short made-up keys become roughly a million times
 * dearer to guess. One derivation costs about 15 ms of CPU, once per request that sends a key.
 */

/** Who may use a key: keys of different tenants, callers or routes never meet. */
export interface IdempotencyScope {
  tenantId: string;
  /** The API key's ID, or `public`. */
  caller: string;
  routeId: string;
}

/** What a key gives within its scope: the record's ID, and the key its answer is sealed with. */
export interface IdempotencyKeyMaterial {
  scopeHash: string;
  answerKey: Buffer;
}

/** The first answer to a key, as a replay sends it again (without `ok` and `requestId`). */
export interface StoredAnswer {
  statusCode: number;
  members: Record<string, unknown>;
}

/** scrypt's cost: 2^13 rounds of 8 KiB blocks (8 MiB of memory). Changing it changes every record ID. */
const STRETCH = { N: 2 ** 13, r: 8, p: 1, maxmem: 32 * 1024 * 1024 } as const;
const FORMAT_VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

function stretch(key: string, salt: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(key, salt, 32, STRETCH, (error, derived) => (error ? reject(error) : resolve(derived)));
  });
}

/** The record ID and answer key of `key` in `scope`; asynchronous, so concurrent requests share the thread pool. */
export async function deriveIdempotencyKeyMaterial(
  scope: IdempotencyScope,
  key: string,
): Promise<IdempotencyKeyMaterial> {
  const scopeText = JSON.stringify(['groupshoot idempotency v1', scope.tenantId, scope.caller, scope.routeId]);
  const stretched = await stretch(key, scopeText);
  const derive = (purpose: string) => Buffer.from(hkdfSync('sha256', stretched, scopeText, purpose, 32));
  return { scopeHash: derive('record id').toString('hex'), answerKey: derive('answer encryption') };
}

/**
 * Seals an answer with AES-256-GCM under a fresh random IV: version, IV, tag, ciphertext.
 * `boundTo` (record ID and request hash) is authenticated too, so a sealed answer cannot be
 * moved to another record or request.
 */
export function sealAnswer(answerKey: Buffer, answer: StoredAnswer, boundTo: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', answerKey, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(boundTo, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(answer), 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.of(FORMAT_VERSION), iv, cipher.getAuthTag(), ciphertext]);
}

/** The answer sealed in `sealed`, or undefined when it does not open (another key, altered bytes, another shape). */
export function openAnswer(answerKey: Buffer, sealed: Uint8Array, boundTo: string): StoredAnswer | undefined {
  const bytes = Buffer.from(sealed);
  if (bytes.length < 1 + IV_BYTES + TAG_BYTES || bytes[0] !== FORMAT_VERSION) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', answerKey, bytes.subarray(1, 1 + IV_BYTES), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(Buffer.from(boundTo, 'utf8'));
    decipher.setAuthTag(bytes.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES));
    const plaintext = Buffer.concat([
      decipher.update(bytes.subarray(1 + IV_BYTES + TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
    const answer = JSON.parse(plaintext) as Partial<StoredAnswer>;
    const shaped =
      typeof answer?.statusCode === 'number' && typeof answer.members === 'object' && answer.members !== null;
    return shaped ? (answer as StoredAnswer) : undefined;
  } catch {
    return undefined;
  }
}

const ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;
const MAX_DEPTH = 3;

/**
 * The person and order IDs an answer carries, so that erasure can find the records that answer
 * with a person's data: every `personId` and `orderId` member, at the top level and in the
 * objects of its arrays (`persons[]` of an import), without looking at what the members mean.
 */
export function idsInAnswer(members: Record<string, unknown>): { personIds: string[]; orderIds: string[] } {
  const personIds = new Set<string>();
  const orderIds = new Set<string>();
  const visit = (value: unknown, depth: number): void => {
    if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) {
      for (const entry of value) visit(entry, depth + 1);
      return;
    }
    for (const [name, member] of Object.entries(value)) {
      if (typeof member === 'string' && ID_PATTERN.test(member)) {
        if (name === 'personId') personIds.add(member);
        if (name === 'orderId') orderIds.add(member);
      } else {
        visit(member, depth + 1);
      }
    }
  };
  visit(members, 0);
  return { personIds: [...personIds], orderIds: [...orderIds] };
}
