import { DomainError, type DomainErrorReason, invalidField } from '#lib/platform/domain-error';
import { ERROR_CATALOG, type ErrorCode } from '#lib/http/errors';
import { ERROR_CODE_OF_REASON, apiErrorOf } from '#lib/http/domain-error-mapping';

const reasons = Object.keys(ERROR_CODE_OF_REASON) as DomainErrorReason[];

/** The specification: reasons in the domain's own words, and the catalogue code each is answered with. */
const RENAMED = new Map(
  [
    'unknown_gallery gallery_not_found',
    'not_a_group_shoot not_a_groupshoot_gallery',
    'unknown_person person_not_found',
    'unknown_photo photo_not_found',
    'unknown_shooting_day invalid_shooting_day',
    'unknown_package package_not_found',
    'unknown_checkout_token invalid_checkout_token',
    'reservation_changed storage_unavailable',
    'access_codes_exhausted storage_unavailable',
    'media_storage_unavailable storage_unavailable',
    'payment_account_not_ready connect_not_ready_for_payments',
    'photo_signing_unavailable cdn_signing_unavailable',
    'unknown_access_pair photos_not_found',
    'invalid_photo_link photo_link_invalid',
    'photo_lookup_by_code_off photo_lookup_by_code_disabled',
    'payment_provider_busy rate_limit_exceeded',
  ].map((pair) => pair.split(' ') as [DomainErrorReason, ErrorCode]),
);
/** Every other reason is named like the catalogue code it is answered with. */
const EXPECTED_CODE = (reason: DomainErrorReason): ErrorCode => RENAMED.get(reason) ?? (reason as ErrorCode);

describe('ERROR_CODE_OF_REASON', () => {
  it('names every reason it renames', () => {
    expect([...RENAMED.keys()].filter((reason) => !reasons.includes(reason))).toEqual([]);
  });

  it.each(reasons.filter((reason) => !RENAMED.has(reason)))(
    'answers %s with the catalogue code of that name',
    (reason) => {
      expect(Object.keys(ERROR_CATALOG)).toContain(reason);
      expect(ERROR_CODE_OF_REASON[reason]).toBe(reason);
    },
  );

  it.each(reasons)('maps %s to a code of the error catalogue', (reason) => {
    expect(Object.keys(ERROR_CATALOG)).toContain(ERROR_CODE_OF_REASON[reason]);
  });
});

describe('apiErrorOf', () => {
  it.each(reasons.map((reason) => [reason, EXPECTED_CODE(reason)] as const))(
    'answers %s with %s and its catalogue status',
    (reason, code) => {
      // Act
      const error = apiErrorOf(new DomainError(reason));

      // Assess
      expect(error.code).toBe(code);
      expect(error.status).toBe(ERROR_CATALOG[code].status);
    },
  );

  it.each([
    ['unknown_gallery', 404],
    ['shooting_day_full', 409],
    ['selfie_too_large', 413],
    ['reservation_changed', 503],
    ['payment_provider_unavailable', 502],
    ['photo_signing_unavailable', 500],
  ] as const)('gives %s the status %i', (reason, status) => {
    expect(apiErrorOf(new DomainError(reason)).status).toBe(status);
  });

  it('takes the catalogue message for a DomainError without a message', () => {
    const error = apiErrorOf(new DomainError('unknown_shooting_day'));

    expect(error.message).toBe(ERROR_CATALOG.invalid_shooting_day.message);
  });

  it('keeps the message of a DomainError that has one', () => {
    const error = apiErrorOf(new DomainError('unknown_package', 'The gallery has no package pkg_9.'));

    expect(error.message).toBe('The gallery has no package pkg_9.');
  });

  it.each([
    ['field', invalidField('phone', 'phone must have at most 50 characters.'), { field: 'phone' }],
    ['key', new DomainError('invalid_custom_field', 'Size is required.', { key: 'custom-1' }), { key: 'custom-1' }],
    [
      'parameter',
      new DomainError('invalid_parameter', 'limit must be 1 to 500.', { parameter: 'limit' }),
      { parameter: 'limit' },
    ],
  ])('puts the subject %s into the body', (_member, domainError, subject) => {
    // Act
    const body = apiErrorOf(domainError).toJSON();

    // Assess
    expect(body).toEqual({ ok: false, error: domainError.reason, message: domainError.message, ...subject });
  });

  it('adds no subject members to the body of a refusal without a subject', () => {
    const body = apiErrorOf(new DomainError('consent_required')).toJSON();

    expect(body).toEqual({ ok: false, error: 'consent_required', message: ERROR_CATALOG.consent_required.message });
  });
});

describe('apiErrorOf, for a refusal that says when to retry', () => {
  it('answers Retry-After with the seconds the refusal gives, and no Retry-After without them', () => {
    // Act
    const busy = apiErrorOf(new DomainError('payment_provider_busy', 'Retry in 3 seconds.', {}, 3));
    const plain = apiErrorOf(new DomainError('payment_provider_unavailable'));
    // Assess
    expect([busy.status, busy.code, busy.headers]).toEqual([429, 'rate_limit_exceeded', { 'Retry-After': '3' }]);
    expect(plain.headers).toEqual({});
  });
});
