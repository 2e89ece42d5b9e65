import fc from 'fast-check';
import { useLocalApi } from '../../support/local-api';
import { type CheckinStudio, createCheckinStudio } from '../../support/checkin-gallery';

const api = useLocalApi();

/** Values of every JSON type, unicode strings and oversized ones included. */
const jsonValue = fc.oneof(
  fc.string({ unit: 'grapheme' }),
  fc.string({ minLength: 190, maxLength: 1200 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
);

const CHECKIN_FIELDS = [
  'action',
  'token',
  'name',
  'email',
  'employeeId',
  'phone',
  'department',
  'notes',
  'customFields',
  'consentGiven',
  'faceConsent',
  'notificationConsent',
  'hrExportConsent',
  'shootingDayId',
  'selectedPackageId',
  'orderNotes',
  'termsAccepted',
  'selfieBase64',
];

describe('POST /group-shoot under random input (fast-check)', () => {
  let studio: CheckinStudio;
  beforeAll(async () => {
    studio = await createCheckinStudio();
  });

  it('never answers 5xx, and answers every error in the error shape with a request ID', async () => {
    const body = fc.oneof(
      // A valid body with some members replaced by random values or removed.
      fc
        .record({
          replaced: fc.dictionary(fc.constantFrom(...CHECKIN_FIELDS), fc.option(jsonValue, { nil: undefined }), {
            maxKeys: 4,
          }),
          extra: fc.dictionary(fc.string({ maxLength: 12 }), jsonValue, { maxKeys: 2 }),
        })
        .map(({ replaced, extra }) => JSON.stringify({ ...extra, ...studio.validBody(), ...replaced })),
      // Anything at all as the body.
      fc.string({ unit: 'binary', maxLength: 300 }),
      jsonValue.map((value) => JSON.stringify(value)),
    );
    const headers = fc.record(
      {
        'X-Tenant-Slug': fc.oneof(
          fc.constant(studio.slug),
          fc.string({ maxLength: 70 }).filter((value) => /^[\x21-\x7e]*$/.test(value)),
        ),
        'Content-Type': fc.constantFrom(
          'application/json',
          'text/plain',
          'application/x-www-form-urlencoded',
          'image/jpeg',
        ),
        'Idempotency-Key': fc.string({ maxLength: 40 }).filter((value) => /^[\x21-\x7e]*$/.test(value)),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(body, headers, async (raw, sentHeaders) => {
        const answer = await api.call('/group-shoot', { method: 'POST', headers: sentHeaders, body: raw });
        expect(answer.status).toBeLessThan(500);
        expect(answer.headers.get('x-request-id')).toBeTruthy();
        if (answer.status >= 400) {
          expect(answer.body).toEqual(
            expect.objectContaining({
              ok: false,
              error: expect.any(String),
              message: expect.any(String),
              requestId: answer.headers.get('x-request-id'),
            }),
          );
        } else {
          expect(answer.body).toEqual(
            expect.objectContaining({ ok: true, personId: expect.any(String), code: expect.any(String) }),
          );
        }
      }),
      { numRuns: 300 },
    );
  }, 120_000);
});
