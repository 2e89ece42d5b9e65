import { createHash } from 'node:crypto';
import {
  type IdempotencyScope,
  type StoredAnswer,
  deriveIdempotencyKeyMaterial,
  idsInAnswer,
  openAnswer,
  sealAnswer,
} from '#lib/idempotency/rules/idempotency-sealing';

const SCOPE: IdempotencyScope = { tenantId: 'ten_01jabc', caller: 'public', routeId: 'submitCheckin' };
const KEY = '3f2b8c0e-9a4d-4f6b-8e1a-2c7d5b9e0f13';
const ANSWER: StoredAnswer = {
  statusCode: 200,
  members: {
    orderId: 'ord_1',
    checkoutUrl: 'https://pay.example/cs_1',
    statusToken: 'gst_SECRETSTATUS',
    retryToken: 'grt_SECRETRETRY',
    packageName: 'Premium',
  },
};
const BOUND = 'record\nrequest';

describe('deriveIdempotencyKeyMaterial', () => {
  it('gives the same record ID and answer key for the same key in the same scope', async () => {
    const [first, second] = await Promise.all([
      deriveIdempotencyKeyMaterial(SCOPE, KEY),
      deriveIdempotencyKeyMaterial(SCOPE, KEY),
    ]);
    expect(first.scopeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(second).toEqual(first);
    expect(first.answerKey).toHaveLength(32);
  });

  it.each([
    ['another tenant', { ...SCOPE, tenantId: 'ten_01jxyz' }, KEY],
    ['another caller', { ...SCOPE, caller: 'key_01jabc' }, KEY],
    ['another route', { ...SCOPE, routeId: 'importPersons' }, KEY],
    ['another key', SCOPE, `${KEY}x`],
  ])('gives %s another record ID and another answer key, so a key is useless elsewhere', async (_case, scope, key) => {
    const own = await deriveIdempotencyKeyMaterial(SCOPE, KEY);
    const other = await deriveIdempotencyKeyMaterial(scope, key);
    expect(other.scopeHash).not.toBe(own.scopeHash);
    expect(other.answerKey.equals(own.answerKey)).toBe(false);
    expect(openAnswer(other.answerKey, sealAnswer(own.answerKey, ANSWER, BOUND), BOUND)).toBeUndefined();
  });

  it('keeps the record ID and the answer key independent, and the record ID no fast hash of scope and key', async () => {
    const material = await deriveIdempotencyKeyMaterial(SCOPE, KEY);
    expect(material.scopeHash).not.toBe(material.answerKey.toString('hex'));
    // The earlier record ID, one SHA-256 that let anyone with the table test guesses at full speed.
    const fast = createHash('sha256')
      .update([SCOPE.tenantId, SCOPE.caller, SCOPE.routeId, KEY].join('\n'))
      .digest('hex');
    expect(material.scopeHash).not.toBe(fast);
  });

  it('stretches the key: a derivation costs milliseconds, not microseconds', async () => {
    const started = process.hrtime.bigint();
    await deriveIdempotencyKeyMaterial(SCOPE, KEY);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeGreaterThan(2);
  });
});

describe('sealAnswer and openAnswer', () => {
  let answerKey: Buffer;
  beforeAll(async () => {
    answerKey = (await deriveIdempotencyKeyMaterial(SCOPE, KEY)).answerKey;
  });

  it('open what they sealed, exactly', () => {
    expect(openAnswer(answerKey, sealAnswer(answerKey, ANSWER, BOUND), BOUND)).toEqual(ANSWER);
  });

  it('hold no member of the answer in clear', () => {
    const sealed = sealAnswer(answerKey, ANSWER, BOUND);
    for (const text of [
      sealed.toString('latin1'),
      sealed.toString('utf8'),
      sealed.toString('base64'),
      sealed.toString('hex'),
    ]) {
      for (const secret of ['gst_SECRETSTATUS', 'grt_SECRETRETRY', 'Premium', 'statusToken'])
        expect(text).not.toContain(secret);
    }
  });

  it('use a fresh IV for every seal', () => {
    const first = sealAnswer(answerKey, ANSWER, BOUND);
    const second = sealAnswer(answerKey, ANSWER, BOUND);
    expect(first.subarray(1, 13).equals(second.subarray(1, 13))).toBe(false);
    expect(first.equals(second)).toBe(false);
  });

  it.each([
    ['the version', 0],
    ['the IV', 5],
    ['the tag', 20],
    ['the ciphertext', 40],
  ])('refuse a seal with a byte of %s altered', (_part, index) => {
    const sealed = sealAnswer(answerKey, ANSWER, BOUND);
    sealed[index] = sealed[index]! ^ 0x01;
    expect(openAnswer(answerKey, sealed, BOUND)).toBeUndefined();
  });

  it('refuse a seal bound to another record or request, a truncated one, and an empty one', () => {
    const sealed = sealAnswer(answerKey, ANSWER, BOUND);
    expect(openAnswer(answerKey, sealed, 'record\nanother request')).toBeUndefined();
    expect(openAnswer(answerKey, sealed.subarray(0, sealed.length - 1), BOUND)).toBeUndefined();
    expect(openAnswer(answerKey, new Uint8Array(0), BOUND)).toBeUndefined();
  });
});

describe('idsInAnswer', () => {
  it.each([
    ['a free check-in', { personId: 'per_1', code: 'AB12', name: 'Ada' }, ['per_1'], []],
    ['a paid check-in', ANSWER.members, [], ['ord_1']],
    [
      'a paid checkinStatus',
      { orderId: 'ord_1', status: 'paid', packageName: 'P', personId: 'per_2', code: 'CD34', name: 'Ada' },
      ['per_2'],
      ['ord_1'],
    ],
    [
      'an import',
      {
        galleryToken: 'g',
        imported: 2,
        skipped: 0,
        persons: [
          { personId: 'per_3', code: 'EF56' },
          { personId: 'per_4', code: 'GH78' },
        ],
      },
      ['per_3', 'per_4'],
      [],
    ],
    [
      'another array of persons',
      { created: [{ personId: 'per_5' }, { personId: 'per_5' }, { personId: 42 }] },
      ['per_5'],
      [],
    ],
    ['a refusal', { error: 'persons_required', message: 'A non-empty persons array is required.' }, [], []],
  ])('finds the persons and orders of %s', (_case, members, personIds, orderIds) => {
    expect(idsInAnswer(members as Record<string, unknown>)).toEqual({ personIds, orderIds });
  });
});
