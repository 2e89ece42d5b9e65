import { parseSubmitCheckin } from '#lib/checkin/checkin-schemas';
import { validateCheckin } from '#lib/checkin/rules/checkin-request';
import { type DomainError } from '#lib/platform/domain-error';
import {
  type FormField,
  GALLERY_COUNTER_NAMES,
  type Gallery,
  type GalleryConfiguration,
  type GalleryPackage,
  type ShootingDay,
} from '#lib/galleries/rules/gallery-model';
import { makeJpeg, makeJpegWithGps } from '../../support/media';
import { refusalOf } from '../../support/domain-errors';

const DAY: ShootingDay = {
  id: 'day-1',
  date: '2027-03-01',
  label: 'First day',
  startTime: '09:00',
  endTime: '12:00',
  booked: 0,
};
const PACKAGE: GalleryPackage = {
  id: 'pkg-1',
  name: 'Standard',
  description: 'One portrait',
  price: 0,
  currency: 'eur',
  position: 1,
};
const SHIRT_SIZE = 'custom-0b7e4a52-9f1c-4d2e-8a3b-5c6d7e8f9a0b';

function formField(key: string, overrides: Partial<FormField> = {}): FormField {
  return { key, label: key, type: 'text', required: false, enabled: true, position: 1, ...overrides };
}

/** A group-shoot gallery that asks for nothing beyond name and email, unless told otherwise. */
function configuration(
  gallery: Partial<Gallery> = {},
  rest: Partial<Omit<GalleryConfiguration, 'gallery'>> = {},
): GalleryConfiguration {
  return {
    gallery: {
      tenantId: 'ten_01',
      token: 'gallery1',
      galleryName: 'Team portraits',
      isGroupShoot: true,
      selfieEnabled: false,
      selfieRequired: false,
      consentRequired: false,
      showShootingDaySelector: true,
      granularConsents: { face: false, notification: false, hrExport: false },
      photoAccess: { codeAndEmail: false, codeAndEmployeeId: false },
      createdAt: '2027-01-01T00:00:00.000Z',
      ...gallery,
    },
    shootingDays: [DAY],
    packages: [PACKAGE],
    formFields: [],
    counters: Object.fromEntries(
      GALLERY_COUNTER_NAMES.map((name) => [name, 0]),
    ) as unknown as GalleryConfiguration['counters'],
    ...rest,
  };
}

const VALID = { name: 'Ada Lovelace', email: 'ada@example.com' };

/**
 * A submitCheckin body on its way through the service: parsed at the edge (types, limits and
 * their order of precedence), then held to the gallery's rules.
 */
function checkIn(body: Record<string, unknown>, gallery: GalleryConfiguration) {
  return validateCheckin(parseSubmitCheckin({ action: 'submitCheckin', ...body }), gallery);
}
const base64 = (bytes: Buffer) => bytes.toString('base64');

describe('a submitCheckin body (parseSubmitCheckin, then validateCheckin)', () => {
  describe('order of precedence', () => {
    /** A gallery that asks for everything, so that every rule has something to check. */
    const demanding = configuration(
      {
        consentRequired: true,
        selfieEnabled: true,
        selfieRequired: true,
        checkinPolicy: { mode: 'open', allowedEmailDomains: ['example.com'] },
      },
      {
        formFields: [
          formField('employeeId', { required: true }),
          formField(SHIRT_SIZE, { label: 'Shirt size', required: true }),
        ],
      },
    );

    /** A body that breaks every rule at once. */
    const brokenEverywhere: Record<string, unknown> = {
      name: '   ',
      email: null,
      employeeId: 'e'.repeat(101),
      phone: 'p'.repeat(51),
      department: 'd'.repeat(101),
      notes: 'n'.repeat(1001),
      orderNotes: 'o'.repeat(1001),
      shootingDayId: 's'.repeat(101),
      selectedPackageId: 'k'.repeat(101),
      consentGiven: 'yes',
      faceConsent: 1,
      notificationConsent: 'true',
      hrExportConsent: 0,
      termsAccepted: 'no',
      selfieBase64: 42,
      customFields: ['M'],
    };

    /** Each rule in the documented order: the refusal it gives, and the repair that lets the body past it. */
    const steps: [string, Partial<DomainError>, Record<string, unknown>][] = [
      ['name_required', { reason: 'name_required' }, { name: 'x'.repeat(201) }],
      ['email_required', { reason: 'email_required' }, { email: 'e'.repeat(201) }],
      ['name length', { reason: 'invalid_field', subject: { field: 'name' } }, { name: '  Ada Lovelace  ' }],
      ['email length', { reason: 'invalid_field', subject: { field: 'email' } }, { email: 'not-an-address' }],
      ['employeeId length', { reason: 'invalid_field', subject: { field: 'employeeId' } }, { employeeId: '   ' }],
      ['phone length', { reason: 'invalid_field', subject: { field: 'phone' } }, { phone: '+49 30 1234567' }],
      ['department length', { reason: 'invalid_field', subject: { field: 'department' } }, { department: 'Research' }],
      ['notes length', { reason: 'invalid_field', subject: { field: 'notes' } }, { notes: 'Glasses' }],
      ['orderNotes length', { reason: 'invalid_field', subject: { field: 'orderNotes' } }, { orderNotes: '' }],
      [
        'shootingDayId length',
        { reason: 'invalid_field', subject: { field: 'shootingDayId' } },
        { shootingDayId: 'day-9' },
      ],
      [
        'selectedPackageId length',
        { reason: 'invalid_field', subject: { field: 'selectedPackageId' } },
        { selectedPackageId: 'pkg-9' },
      ],
      [
        'email plausibility',
        { reason: 'invalid_field', subject: { field: 'email' } },
        { email: 'ada@elsewhere.example' },
      ],
      ['consentGiven type', { reason: 'invalid_field', subject: { field: 'consentGiven' } }, { consentGiven: false }],
      ['faceConsent type', { reason: 'invalid_field', subject: { field: 'faceConsent' } }, { faceConsent: null }],
      [
        'notificationConsent type',
        { reason: 'invalid_field', subject: { field: 'notificationConsent' } },
        { notificationConsent: true },
      ],
      [
        'hrExportConsent type',
        { reason: 'invalid_field', subject: { field: 'hrExportConsent' } },
        { hrExportConsent: undefined },
      ],
      [
        'termsAccepted type',
        { reason: 'invalid_field', subject: { field: 'termsAccepted' } },
        { termsAccepted: false },
      ],
      ['selfieBase64 type', { reason: 'invalid_field', subject: { field: 'selfieBase64' } }, { selfieBase64: null }],
      ['customFields type', { reason: 'invalid_field', subject: { field: 'customFields' } }, { customFields: {} }],
      [
        'required built-in form field',
        { reason: 'invalid_field', subject: { field: 'employeeId' } },
        { employeeId: 'E-1' },
      ],
      ['email domain', { reason: 'email_domain_not_allowed' }, { email: 'ada@example.com' }],
      ['consent_required', { reason: 'consent_required' }, { consentGiven: true }],
      [
        'custom fields',
        { reason: 'invalid_custom_field', subject: { key: SHIRT_SIZE } },
        { customFields: { [SHIRT_SIZE]: 'M' } },
      ],
      ['selfie_required', { reason: 'selfie_required' }, { selfieBase64: 'not base64 at all!' }],
      ['selfie decoding', { reason: 'invalid_selfie' }, { selfieBase64: base64(makeJpeg(8, 8)) }],
      ['unknown shooting day', { reason: 'unknown_shooting_day' }, { shootingDayId: 'day-1' }],
      ['unknown package', { reason: 'unknown_package' }, { selectedPackageId: 'pkg-1' }],
    ];

    it.each(steps.map(([rule, refusal], index) => [index + 1, rule, refusal, index] as const))(
      '%i. %s',
      (_position, _rule, refusal, index) => {
        // Prepare: the repairs of every rule before this one.
        const body = steps
          .slice(0, index)
          .reduce((partial, [, , repair]) => ({ ...partial, ...repair }), brokenEverywhere);

        // Act
        const error = refusalOf(() => checkIn(body, demanding));

        // Assess
        expect(error).toMatchObject(refusal);
      },
    );

    it('accepts the body once every rule is repaired', () => {
      const body = steps.reduce((partial, [, , repair]) => ({ ...partial, ...repair }), brokenEverywhere);

      const submission = checkIn(body, demanding);

      expect(submission).toEqual(
        expect.objectContaining({
          name: 'Ada Lovelace',
          employeeId: 'E-1',
          shootingDay: DAY,
          selectedPackage: PACKAGE,
        }),
      );
    });
  });

  describe('text fields', () => {
    const limits = [
      ['name', 200],
      ['email', 200],
      ['employeeId', 100],
      ['phone', 50],
      ['department', 100],
      ['notes', 1000],
      ['orderNotes', 1000],
      ['shootingDayId', 100],
      ['selectedPackageId', 100],
    ] as const;

    /** A value of exactly `length` characters that passes every other rule of the field. */
    const valueOfLength = (field: string, length: number) =>
      field === 'email' ? `${'a'.repeat(length - '@example.com'.length)}@example.com` : 'x'.repeat(length);

    /** Days and packages with IDs of the limit's length, so that a long ID is still a known one. */
    const withLongIds = configuration(
      {},
      {
        shootingDays: [{ ...DAY, id: 'x'.repeat(100) }],
        packages: [{ ...PACKAGE, id: 'x'.repeat(100) }],
      },
    );

    it.each(limits)('accepts %s of %i characters', (field, limit) => {
      expect(() => checkIn({ ...VALID, [field]: valueOfLength(field, limit) }, withLongIds)).not.toThrow();
    });

    it.each(limits)('refuses %s of more than %i characters as invalid_field', (field, limit) => {
      const error = refusalOf(() => checkIn({ ...VALID, [field]: valueOfLength(field, limit + 1) }, withLongIds));

      expect(error).toMatchObject({
        reason: 'invalid_field',
        subject: { field },
        message: `${field} must have at most ${limit} characters.`,
      });
    });

    it.each(limits)('counts the characters of %s after trimming', (field, limit) => {
      expect(() => checkIn({ ...VALID, [field]: `  ${valueOfLength(field, limit)}\n` }, withLongIds)).not.toThrow();
    });

    it.each(limits.flatMap(([field]) => [[field, 42] as const, [field, true] as const, [field, ['x']] as const]))(
      'refuses %s given as %p as invalid_field',
      (field, value) => {
        const error = refusalOf(() => checkIn({ ...VALID, [field]: value }, configuration()));

        expect(error).toMatchObject({
          reason: 'invalid_field',
          subject: { field },
          message: `${field} must be a string.`,
        });
      },
    );
  });

  describe('name and email', () => {
    it.each([
      ['absent', undefined],
      ['null', null],
      ['empty', ''],
      ['blank', ' \t\n'],
    ])('gives name_required for a name that is %s', (_case, name) => {
      expect(refusalOf(() => checkIn({ ...VALID, name }, configuration())).reason).toBe('name_required');
    });

    it.each([
      ['absent', undefined],
      ['null', null],
      ['blank', '   '],
    ])('gives email_required for an email that is %s', (_case, email) => {
      expect(refusalOf(() => checkIn({ ...VALID, email }, configuration())).reason).toBe('email_required');
    });

    it.each(['ada', 'ada@', '@example.com', 'ada@example', 'ada lovelace@example.com'])(
      'refuses the implausible address %p as invalid_field email',
      (email) => {
        expect(refusalOf(() => checkIn({ ...VALID, email }, configuration()))).toMatchObject({
          reason: 'invalid_field',
          subject: { field: 'email' },
        });
      },
    );
  });

  describe('booleans', () => {
    it.each(['consentGiven', 'faceConsent', 'notificationConsent', 'hrExportConsent', 'termsAccepted'])(
      'refuses %s that is not true or false',
      (field) => {
        const error = refusalOf(() => checkIn({ ...VALID, [field]: 'true' }, configuration()));

        expect(error).toMatchObject({
          reason: 'invalid_field',
          subject: { field },
          message: `${field} must be true or false.`,
        });
      },
    );
  });

  describe('built-in form fields', () => {
    it.each(['employeeId', 'phone', 'department', 'notes'])('requires %s where the form marks it required', (key) => {
      const gallery = configuration({}, { formFields: [formField(key, { label: `The ${key}`, required: true })] });

      const error = refusalOf(() => checkIn({ ...VALID, [key]: '  ' }, gallery));

      expect(error).toMatchObject({
        reason: 'invalid_field',
        subject: { field: key },
        message: `The ${key} is required.`,
      });
    });

    it('does not require a required field that is disabled', () => {
      const gallery = configuration({}, { formFields: [formField('phone', { required: true, enabled: false })] });

      expect(checkIn(VALID, gallery).phone).toBeNull();
    });
  });

  describe('consent', () => {
    it.each([
      ['absent', undefined],
      ['false', false],
    ])('gives consent_required when the gallery requires consent and consentGiven is %s', (_case, consentGiven) => {
      const gallery = configuration({ consentRequired: true });

      expect(refusalOf(() => checkIn({ ...VALID, consentGiven }, gallery)).reason).toBe('consent_required');
    });

    it('accepts consentGiven true where the gallery requires consent', () => {
      expect(
        checkIn({ ...VALID, consentGiven: true }, configuration({ consentRequired: true })).consents.consentGiven,
      ).toBe(true);
    });
  });

  describe('custom fields', () => {
    it('refuses an invalid custom value with its key', () => {
      const gallery = configuration({}, { formFields: [formField(SHIRT_SIZE, { type: 'number' })] });

      const error = refusalOf(() => checkIn({ ...VALID, customFields: { [SHIRT_SIZE]: 'large' } }, gallery));

      expect(error).toMatchObject({ reason: 'invalid_custom_field', subject: { key: SHIRT_SIZE } });
    });

    it.each([
      ['an array', []],
      ['text', 'M'],
      ['a number', 42],
    ])('refuses customFields that are %s', (_case, customFields) => {
      expect(refusalOf(() => checkIn({ ...VALID, customFields }, configuration()))).toMatchObject({
        reason: 'invalid_field',
        subject: { field: 'customFields' },
      });
    });

    it('takes customFields null as none', () => {
      expect(checkIn({ ...VALID, customFields: null }, configuration()).customFields).toEqual({});
    });
  });

  describe('selfie', () => {
    it('gives selfie_required where the gallery requires one and none is sent', () => {
      const gallery = configuration({ selfieEnabled: true, selfieRequired: true });

      expect(refusalOf(() => checkIn({ ...VALID, selfieBase64: '  ' }, gallery)).reason).toBe('selfie_required');
    });

    it('requires no selfie where selfies are disabled, even if marked required', () => {
      const gallery = configuration({ selfieEnabled: false, selfieRequired: true });

      expect(checkIn(VALID, gallery).selfieAsSent).toBeUndefined();
    });

    it('gives invalid_selfie for a selfie that is not a JPEG', () => {
      const gallery = configuration({ selfieEnabled: true });
      const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

      expect(refusalOf(() => checkIn({ ...VALID, selfieBase64: base64(png) }, gallery)).reason).toBe('invalid_selfie');
    });

    it('gives selfie_too_large for a selfie over 3 MiB', () => {
      const gallery = configuration({ selfieEnabled: true });
      const selfieBase64 = 'A'.repeat(Math.ceil(((3 * 1024 * 1024 + 3) * 4) / 3));

      expect(refusalOf(() => checkIn({ ...VALID, selfieBase64 }, gallery)).reason).toBe('selfie_too_large');
    });

    it('returns the selfie as sent, for submitCheckin to re-encode before it stores anything', () => {
      const gallery = configuration({ selfieEnabled: true });
      const photo = makeJpegWithGps();

      const { selfieAsSent } = checkIn({ ...VALID, selfieBase64: `data:image/jpeg;base64,${base64(photo)}` }, gallery);

      expect(selfieAsSent!.equals(photo)).toBe(true);
    });

    it('gives invalid_selfie for a JPEG that declares more than 50 megapixels', () => {
      const gallery = configuration({ selfieEnabled: true });
      const photo = makeJpeg(8, 8);
      const frame = photo.indexOf(Buffer.from([0xff, 0xc0]));
      photo.writeUInt16BE(7072, frame + 5); // height
      photo.writeUInt16BE(7072, frame + 7); // width: 7072 × 7072 = 50,013,184 pixels

      expect(refusalOf(() => checkIn({ ...VALID, selfieBase64: base64(photo) }, gallery))).toMatchObject({
        reason: 'invalid_selfie',
        message: 'The selfie has more than 50 megapixels.',
      });
    });

    it('ignores a selfie, even an invalid one, where selfies are disabled', () => {
      const submission = checkIn(
        { ...VALID, selfieBase64: 'not base64 at all!' },
        configuration({ selfieEnabled: false }),
      );

      expect(submission.selfieAsSent).toBeUndefined();
    });
  });

  describe('shooting day and package', () => {
    it('gives unknown_shooting_day for a day the gallery does not have', () => {
      expect(refusalOf(() => checkIn({ ...VALID, shootingDayId: 'day-2' }, configuration())).reason).toBe(
        'unknown_shooting_day',
      );
    });

    it('gives unknown_package for a package the gallery does not have', () => {
      expect(refusalOf(() => checkIn({ ...VALID, selectedPackageId: 'pkg-2' }, configuration())).reason).toBe(
        'unknown_package',
      );
    });

    it('checks the day before the package', () => {
      const error = refusalOf(() =>
        checkIn({ ...VALID, shootingDayId: 'day-2', selectedPackageId: 'pkg-2' }, configuration()),
      );

      expect(error.reason).toBe('unknown_shooting_day');
    });

    it('returns the chosen day and package, found by their trimmed IDs', () => {
      const submission = checkIn({ ...VALID, shootingDayId: ' day-1 ', selectedPackageId: 'pkg-1\n' }, configuration());

      expect(submission.shootingDay).toEqual(DAY);
      expect(submission.selectedPackage).toEqual(PACKAGE);
    });

    it('takes blank IDs as no day and no package', () => {
      const submission = checkIn({ ...VALID, shootingDayId: '  ', selectedPackageId: '' }, configuration());

      expect(submission.shootingDay).toBeUndefined();
      expect(submission.selectedPackage).toBeUndefined();
    });
  });

  describe('a valid submission', () => {
    it('is returned trimmed, with blanks as null', () => {
      // Prepare
      const body = {
        name: '  Ada Lovelace ',
        email: '\tada@example.com  ',
        employeeId: ' E-1 ',
        phone: '   ',
        department: '',
        notes: null,
        orderNotes: ' Two prints ',
        termsAccepted: true,
      };

      // Act
      const submission = checkIn(body, configuration());

      // Assess
      expect(submission).toEqual({
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        employeeId: 'E-1',
        phone: null,
        department: null,
        notes: null,
        orderNotes: 'Two prints',
        consents: { consentGiven: null, faceConsent: null, notificationConsent: null, hrExportConsent: null },
        customFields: {},
        selfieAsSent: undefined,
        shootingDay: undefined,
        selectedPackage: undefined,
        termsAccepted: true,
      });
    });

    it('keeps granular consents only where the gallery asks for them', () => {
      // Prepare: the gallery asks for face and HR export consent, not for notifications.
      const gallery = configuration({ granularConsents: { face: true, notification: false, hrExport: true } });
      const body = { ...VALID, faceConsent: true, notificationConsent: true };

      // Act
      const { consents } = checkIn(body, gallery);

      // Assess
      expect(consents).toEqual({
        consentGiven: null,
        faceConsent: true,
        notificationConsent: null,
        hrExportConsent: false,
      });
    });

    it('keeps consentGiven as sent', () => {
      expect(checkIn({ ...VALID, consentGiven: false }, configuration()).consents.consentGiven).toBe(false);
    });

    it('takes termsAccepted as false unless it is true', () => {
      expect(checkIn(VALID, configuration()).termsAccepted).toBe(false);
    });

    it('returns the custom values of enabled fields and drops unknown keys', () => {
      const gallery = configuration({}, { formFields: [formField(SHIRT_SIZE, { type: 'number' })] });

      const submission = checkIn({ ...VALID, customFields: { [SHIRT_SIZE]: '42', 'custom-unknown': 'x' } }, gallery);

      expect(submission.customFields).toEqual({ [SHIRT_SIZE]: 42 });
    });
  });
});
