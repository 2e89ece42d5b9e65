import { createHmac } from 'node:crypto';
import {
  WebhookSignatureError,
  type WebhookSignatureErrorCode,
  constructWebhookEvent,
  verifyWebhookSignature,
} from '#lib/client/webhook-signature';
import { SIGNATURE_HEADER, newSigningSecret, signatureHeader } from '#lib/webhooks/rules/signature';

const SECRET = 'whsec_0123456789abcdefghijABCDEFGHIJ';
const OLD_SECRET = 'whsec_zyxwvutsrqponmlkjihgfedcba987654';
const SIGNED_AT = 1_767_225_600; // 2026-01-01T00:00:00Z
const BODY = JSON.stringify({
  id: 'evt_01KDX3Q1Z0000000000000000',
  type: 'checkin.completed',
  createdAt: '2026-01-01T00:00:00.000Z',
  apiVersion: 'v1',
  tenantSlug: 'acme',
  galleryToken: 'gal7k2m',
  data: { personId: 'per_1', note: 'Zoë 📷' },
});
/** The receiver's clock: a few seconds after signing. */
const atSigning = { now: () => (SIGNED_AT + 3) * 1000 };

/** The code of the WebhookSignatureError a call throws, or 'accepted'. */
function outcomeOf(verify: () => void): WebhookSignatureErrorCode | 'accepted' {
  try {
    verify();
  } catch (error) {
    if (error instanceof WebhookSignatureError) return error.code;
    throw error;
  }
  return 'accepted';
}

describe('signatureHeader', () => {
  it('is named Groupshoot-Signature', () => {
    expect(SIGNATURE_HEADER).toBe('Groupshoot-Signature');
  });

  it('is t=<seconds>,v1=<HMAC-SHA256 of "<t>.<body>"> in hex', () => {
    // Prepare
    const independent = createHmac('sha256', SECRET).update(`${SIGNED_AT}.${BODY}`).digest('hex');

    // Act
    const header = signatureHeader(BODY, [SECRET], SIGNED_AT);

    // Assess
    expect(header).toBe(`t=${SIGNED_AT},v1=${independent}`);
  });

  it('matches a fixed vector', () => {
    // printf '%s' '1700000000.{"a":1}' | openssl dgst -sha256 -hmac 'whsec_test'
    expect(signatureHeader('{"a":1}', ['whsec_test'], 1_700_000_000)).toBe(
      't=1700000000,v1=38877139021993b830af32feea6e18a8da83eb2f6e49ee50bd9e4cf4ca4d3789',
    );
  });

  it('holds one v1 per secret, in the order given', () => {
    const header = signatureHeader(BODY, [SECRET, OLD_SECRET], SIGNED_AT);
    const parts = header.split(',');
    expect(parts).toHaveLength(3);
    expect(parts[1]).toBe(`v1=${createHmac('sha256', SECRET).update(`${SIGNED_AT}.${BODY}`).digest('hex')}`);
    expect(parts[2]).toBe(`v1=${createHmac('sha256', OLD_SECRET).update(`${SIGNED_AT}.${BODY}`).digest('hex')}`);
  });

  it('refuses to sign without a secret or with a time that is not whole seconds', () => {
    expect(() => signatureHeader(BODY, [], SIGNED_AT)).toThrow();
    expect(() => signatureHeader(BODY, [SECRET], SIGNED_AT * 1000 + 0.5)).toThrow();
  });
});

describe('newSigningSecret', () => {
  it('is whsec_ and 32 base62 characters, new each time', () => {
    const first = newSigningSecret();
    expect(first).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(newSigningSecret()).not.toBe(first);
  });
});

describe('verifyWebhookSignature (the typed client)', () => {
  it('accepts what signatureHeader signed, as a string or as the raw bytes', () => {
    const header = signatureHeader(BODY, [SECRET], SIGNED_AT);
    expect(outcomeOf(() => verifyWebhookSignature(BODY, header, SECRET, atSigning))).toBe('accepted');
    expect(outcomeOf(() => verifyWebhookSignature(Buffer.from(BODY, 'utf8'), header, SECRET, atSigning))).toBe(
      'accepted',
    );
  });

  it('accepts under either secret while a rotated secret is in its grace period', () => {
    const header = signatureHeader(BODY, [SECRET, OLD_SECRET], SIGNED_AT);
    expect(outcomeOf(() => verifyWebhookSignature(BODY, header, SECRET, atSigning))).toBe('accepted');
    expect(outcomeOf(() => verifyWebhookSignature(BODY, header, OLD_SECRET, atSigning))).toBe('accepted');
  });

  it('accepts a signature made up to the tolerance before or after now', () => {
    const header = signatureHeader(BODY, [SECRET], SIGNED_AT);
    expect(outcomeOf(() => verifyWebhookSignature(BODY, header, SECRET, { now: () => (SIGNED_AT + 300) * 1000 }))).toBe(
      'accepted',
    );
    expect(outcomeOf(() => verifyWebhookSignature(BODY, header, SECRET, { now: () => (SIGNED_AT - 300) * 1000 }))).toBe(
      'accepted',
    );
  });

  it.each<[string, () => void, WebhookSignatureErrorCode]>([
    [
      'a tampered body',
      () =>
        verifyWebhookSignature(
          BODY.replace('per_1', 'per_2'),
          signatureHeader(BODY, [SECRET], SIGNED_AT),
          SECRET,
          atSigning,
        ),
      'no_matching_signature',
    ],
    [
      'another secret',
      () => verifyWebhookSignature(BODY, signatureHeader(BODY, [OLD_SECRET], SIGNED_AT), SECRET, atSigning),
      'no_matching_signature',
    ],
    [
      'a timestamp changed after signing',
      () =>
        verifyWebhookSignature(
          BODY,
          signatureHeader(BODY, [SECRET], SIGNED_AT).replace(`t=${SIGNED_AT}`, `t=${SIGNED_AT + 1}`),
          SECRET,
          atSigning,
        ),
      'no_matching_signature',
    ],
    [
      'a signature 301 s old',
      () =>
        verifyWebhookSignature(BODY, signatureHeader(BODY, [SECRET], SIGNED_AT), SECRET, {
          now: () => (SIGNED_AT + 301) * 1000,
        }),
      'timestamp_outside_tolerance',
    ],
    [
      'a signature from 301 s in the future',
      () =>
        verifyWebhookSignature(BODY, signatureHeader(BODY, [SECRET], SIGNED_AT), SECRET, {
          now: () => (SIGNED_AT - 301) * 1000,
        }),
      'timestamp_outside_tolerance',
    ],
    [
      'a signature older than a tolerance of its own',
      () =>
        verifyWebhookSignature(BODY, signatureHeader(BODY, [SECRET], SIGNED_AT), SECRET, {
          toleranceSeconds: 2,
          now: () => (SIGNED_AT + 3) * 1000,
        }),
      'timestamp_outside_tolerance',
    ],
    ['no header', () => verifyWebhookSignature(BODY, undefined, SECRET, atSigning), 'missing_header'],
    ['a null header', () => verifyWebhookSignature(BODY, null, SECRET, atSigning), 'missing_header'],
    ['an empty header', () => verifyWebhookSignature(BODY, '  ', SECRET, atSigning), 'missing_header'],
    [
      'a header without t',
      () => verifyWebhookSignature(BODY, `v1=${'a'.repeat(64)}`, SECRET, atSigning),
      'malformed_header',
    ],
    [
      'a header without v1',
      () => verifyWebhookSignature(BODY, `t=${SIGNED_AT},v0=${'a'.repeat(64)}`, SECRET, atSigning),
      'malformed_header',
    ],
    [
      'a header with a t that is no number',
      () => verifyWebhookSignature(BODY, `t=soon,v1=${'a'.repeat(64)}`, SECRET, atSigning),
      'malformed_header',
    ],
    [
      'a header with two t',
      () => verifyWebhookSignature(BODY, `t=${SIGNED_AT},t=${SIGNED_AT},v1=${'a'.repeat(64)}`, SECRET, atSigning),
      'malformed_header',
    ],
    [
      'a header with a short v1',
      () => verifyWebhookSignature(BODY, `t=${SIGNED_AT},v1=abc`, SECRET, atSigning),
      'malformed_header',
    ],
    [
      'a header that is not key=value',
      () => verifyWebhookSignature(BODY, 'sha256 deadbeef', SECRET, atSigning),
      'malformed_header',
    ],
  ])('refuses %s', (_case, verify, code) => {
    expect(outcomeOf(verify)).toBe(code);
  });

  it('ignores unknown schemes beside v1', () => {
    const header = `${signatureHeader(BODY, [SECRET], SIGNED_AT)},v0=whatever`;
    expect(outcomeOf(() => verifyWebhookSignature(BODY, header, SECRET, atSigning))).toBe('accepted');
  });

  it('says what failed in its message', () => {
    expect(() => verifyWebhookSignature(BODY, undefined, SECRET)).toThrow(/^missing_header: /);
  });
});

describe('constructWebhookEvent', () => {
  it('returns the parsed envelope of a verified body', () => {
    const event = constructWebhookEvent(BODY, signatureHeader(BODY, [SECRET], SIGNED_AT), SECRET, atSigning);
    expect(event).toEqual(JSON.parse(BODY));
    expect(event.type).toBe('checkin.completed');
  });

  it('parses nothing it could not verify', () => {
    const parse = jest.spyOn(JSON, 'parse');
    try {
      expect(
        outcomeOf(() =>
          constructWebhookEvent('{"forged":true}', signatureHeader(BODY, [SECRET], SIGNED_AT), SECRET, atSigning),
        ),
      ).toBe('no_matching_signature');
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
  });
});
