import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createApiKey, findApiKeyBySecret, listApiKeys, setApiKeyStatus } from '#lib/tenants/store/api-keys';
import { getGalleryConfiguration, listGalleries, putFormField } from '#lib/galleries/store/galleries';
import { getTenantBySlug } from '#lib/tenants/store/tenants';
import { COMMAND_CATALOG } from '../../scripts/admin/command-catalog';
import { type AdminRun, admin, adminIn } from '../support/admin';
import { LIVE_PROCESS_IDS, stoppedProcessId, writeServerFile } from '../support/connection-files';
import { type TestTenant, createTestTenant, uniqueSlug } from '../support/factories';
import { useTestTable } from '../support/test-table';

useTestTable();

function occurrences(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

/** A failure is one line on standard error, nothing on standard output, and no stack trace. */
function expectFailure(run: AdminRun, code: number, message: RegExp): void {
  expect({ code: run.code, err: run.err }).toEqual({ code, err: [expect.stringMatching(message)] });
  expect(run.out).toBe('');
  expect(run.err[0]).not.toMatch(/\n|\s+at\s.+\(.+:\d+:\d+\)/);
}

describe('tenant commands', () => {
  it('creates a tenant with every option and prints it', async () => {
    // Prepare
    const slug = uniqueSlug('acme');
    // Act
    const run = await admin(
      'tenant',
      'create',
      '--slug',
      slug.toUpperCase(),
      '--name',
      ' Acme Studio ',
      '--plan',
      'pro',
      '--stripe-account',
      'acct_1Abc',
      '--payment-approved',
    );
    // Assess
    expect(run.code).toBe(0);
    expect(run.out).toContain(`Created tenant "${slug}"`);
    expect(await getTenantBySlug(slug)).toEqual(
      expect.objectContaining({
        slug,
        name: 'Acme Studio',
        stripeAccountId: 'acct_1Abc',
        paymentAccessApproved: true,
        plan: expect.objectContaining({ tier: 'pro' }),
      }),
    );
  });

  it('creates a tenant without payment settings and prints JSON with --json', async () => {
    const slug = uniqueSlug();
    const run = await admin('tenant', 'create', '--slug', slug, '--name', 'Plain', '--plan', 'free', '--json');
    expect(run.code).toBe(0);
    expect(run.json()).toEqual(expect.objectContaining({ slug, name: 'Plain', paymentAccessApproved: false }));
    const stored = await getTenantBySlug(slug);
    expect(stored?.stripeAccountId).toBeUndefined();
    expect(stored?.plan?.tier).toBe('free');
  });

  it.each([
    [['--name', 'Renamed'], { name: 'Renamed' }],
    [['--plan', 'studio'], { plan: expect.objectContaining({ tier: 'studio' }) }],
    [['--stripe-account', 'acct_new'], { stripeAccountId: 'acct_new' }],
    [['--payment-approved', 'true'], { paymentAccessApproved: true }],
    [['--payment-approved', 'false', '--name', 'Both'], { paymentAccessApproved: false, name: 'Both' }],
  ])('updates %j and keeps the rest', async (options, expected) => {
    // Prepare
    const studio = await createTestTenant();
    // Act
    const run = await admin('tenant', 'update', '--slug', studio.slug, ...options);
    // Assess
    expect(run.code).toBe(0);
    expect(await getTenantBySlug(studio.slug)).toEqual({
      ...studio.tenant,
      plan: expect.objectContaining({ tier: 'creator' }),
      ...expected,
    });
  });

  it('shows one tenant and lists all of them', async () => {
    const studio = await createTestTenant({ plan: 'starter' });
    const shown = await admin('tenant', 'show', '--slug', studio.slug);
    const listed = await admin('tenant', 'list', '--json');
    expect(shown.code).toBe(0);
    expect(shown.out).toMatch(new RegExp(`plan\\s+starter`));
    expect(shown.out).toContain(studio.tenant.tenantId);
    expect(listed.json()).toContainEqual(
      expect.objectContaining({ slug: studio.slug, tenantId: studio.tenant.tenantId }),
    );
    expect((await admin('tenant', 'list')).out).toContain(studio.slug);
  });
});

describe('key commands', () => {
  let studio: TestTenant;
  beforeAll(async () => {
    studio = await createTestTenant();
  });

  it.each([[[]], [['--json']]])('prints the new key exactly once, with a warning (%j)', async (extra) => {
    // Act
    const created = await admin('key', 'create', '--tenant', studio.slug, '--name', 'HR sync', ...extra);
    // Assess
    const secret = /gsk_[0-9A-Za-z]{40}/.exec(created.out)?.[0];
    expect(created.code).toBe(0);
    expect(occurrences(created.out + created.err.join('\n'), secret!)).toBe(1);
    expect(created.out).toMatch(/will not be shown again/);
    expect(await findApiKeyBySecret(secret!)).toEqual(
      expect.objectContaining({ tenantId: studio.tenant.tenantId, name: 'HR sync', status: 'active' }),
    );
  });

  it('lists keys with ID, name, status, prefix and creation time, never the value or hash', async () => {
    // Prepare
    const { secret, record } = await createApiKey(studio.tenant.tenantId, 'listed key');
    // Act
    const text = await admin('key', 'list', '--tenant', studio.slug);
    const json = await admin('key', 'list', '--tenant', studio.slug, '--json');
    // Assess
    expect(text.out).toContain(record.keyId);
    expect(text.out).toContain(record.displayPrefix);
    expect(text.out + json.out).not.toContain(secret);
    expect(text.out + json.out).not.toMatch(/secretHash|[0-9a-f]{64}/);
    const listed = json.json().find((entry: { keyId: string }) => entry.keyId === record.keyId);
    expect(Object.keys(listed).sort()).toEqual(
      ['createdAt', 'displayPrefix', 'keyId', 'name', 'status', 'tenantId', 'updatedAt'].sort(),
    );
  });

  it.each([
    ['active', 'disable', 0, 'disabled'],
    ['disabled', 'enable', 0, 'active'],
    ['active', 'revoke', 0, 'revoked'],
    ['disabled', 'revoke', 0, 'revoked'],
    ['revoked', 'revoke', 0, 'revoked'],
    ['revoked', 'enable', 1, 'revoked'],
    ['revoked', 'disable', 1, 'revoked'],
  ] as const)('from %s, key %s gives exit code %i and leaves the key %s', async (from, command, code, status) => {
    // Prepare
    const { record } = await createApiKey(studio.tenant.tenantId, `from ${from}`);
    if (from !== 'active') await setApiKeyStatus(studio.tenant.tenantId, record.keyId, from);
    // Act
    const run = await admin('key', command, '--tenant', studio.slug, '--id', record.keyId);
    // Assess
    expect(run.code).toBe(code);
    if (code === 1) expectFailure(run, 1, /revocation is final/);
    const stored = (await listApiKeys(studio.tenant.tenantId)).find((key) => key.keyId === record.keyId);
    expect(stored?.status).toBe(status);
  });

  it("does not touch another tenant's key", async () => {
    const other = await createTestTenant();
    const run = await admin('key', 'revoke', '--tenant', studio.slug, '--id', other.key.keyId);
    expectFailure(run, 1, /has no API key with ID/);
    expect((await findApiKeyBySecret(other.apiKey))?.status).toBe('active');
  });
});

describe('gallery commands', () => {
  let studio: TestTenant;
  beforeAll(async () => {
    studio = await createTestTenant();
  });

  it('creates a gallery with every setting and prints its token', async () => {
    // Act
    const run = await admin(
      'gallery',
      'create',
      '--tenant',
      studio.slug,
      '--name',
      'Acme 2027',
      '--group-shoot',
      '--selfie',
      'required',
      '--consent-text',
      'I agree.',
      '--day-selector',
      '--granular-consents',
      'face,hrExport',
    );
    // Assess
    const token = /with token ([a-z0-9]+)/.exec(run.out)?.[1];
    expect(run.code).toBe(0);
    expect((await getGalleryConfiguration(studio.tenant.tenantId, token!))?.gallery).toEqual(
      expect.objectContaining({
        galleryName: 'Acme 2027',
        isGroupShoot: true,
        selfieEnabled: true,
        selfieRequired: true,
        consentRequired: true,
        consentText: 'I agree.',
        showShootingDaySelector: true,
        granularConsents: { face: true, notification: false, hrExport: true },
      }),
    );
  });

  it.each([
    [[], { isGroupShoot: true }],
    [['--not-group-shoot'], { isGroupShoot: false }],
  ])('creates a gallery with defaults for the settings not given (%j)', async (options, expected) => {
    const run = await admin('gallery', 'create', '--tenant', studio.slug, '--name', 'Defaults', ...options, '--json');
    expect(run.code).toBe(0);
    const stored = await getGalleryConfiguration(studio.tenant.tenantId, run.json().token);
    expect(stored?.gallery).toEqual(
      expect.objectContaining({
        ...expected,
        selfieEnabled: false,
        selfieRequired: false,
        consentRequired: false,
        showShootingDaySelector: false,
        granularConsents: { face: false, notification: false, hrExport: false },
      }),
    );
  });

  it.each([
    [['--name', 'Renamed'], { galleryName: 'Renamed' }],
    [['--not-group-shoot'], { isGroupShoot: false }],
    [['--selfie', 'off'], { selfieEnabled: false, selfieRequired: false }],
    [['--selfie', 'required'], { selfieEnabled: true, selfieRequired: true }],
    [['--no-consent'], { consentRequired: false }],
    [['--consent-text', 'New text'], { consentRequired: true, consentText: 'New text' }],
    [['--no-day-selector'], { showShootingDaySelector: false }],
    [
      ['--granular-consents', 'notification'],
      { granularConsents: { face: false, notification: true, hrExport: false } },
    ],
    [['--granular-consents', 'none'], { granularConsents: { face: false, notification: false, hrExport: false } }],
  ])('updates %j and keeps the other settings', async (options, expected) => {
    // Prepare
    const fresh = await createTestTenant();
    // Act
    const run = await admin('gallery', 'update', '--tenant', fresh.slug, '--gallery', fresh.token, ...options);
    // Assess
    expect(run.code).toBe(0);
    const stored = await getGalleryConfiguration(fresh.tenant.tenantId, fresh.token);
    expect(stored?.gallery).toEqual({ ...fresh.gallery, ...expected });
  });

  it("lists the tenant's galleries", async () => {
    const run = await admin('gallery', 'list', '--tenant', studio.slug, '--json');
    const stored = await listGalleries(studio.tenant.tenantId);
    expect(run.json().map((gallery: { token: string }) => gallery.token)).toEqual(
      stored.map((gallery) => gallery.token),
    );
    expect((await admin('gallery', 'list', '--tenant', studio.slug)).out).toContain(studio.ordinaryToken);
  });

  it('shows a gallery with its days in date order, packages and form fields', async () => {
    // Prepare
    await putFormField(studio.tenant.tenantId, studio.token, {
      key: 'phone',
      label: 'Phone',
      type: 'text',
      required: false,
      enabled: false,
      position: 3,
    });
    // Act
    const json = await admin('gallery', 'show', '--tenant', studio.slug, '--gallery', studio.token, '--json');
    const text = await admin('gallery', 'show', '--tenant', studio.slug, '--gallery', studio.token);
    // Assess
    expect(json.json()).toEqual({
      gallery: studio.gallery,
      shootingDays: [studio.days.earlier, studio.days.later],
      packages: [studio.freePackage],
      formFields: [expect.objectContaining({ key: 'phone', enabled: false })],
      counters: {
        personsImported: 0,
        personsCheckedIn: 0,
        personsWithSelfie: 0,
        personsWithPhotos: 0,
        photos: 0,
        photosUnassigned: 0,
        photosWithheld: 0,
        cardPhotos: 0,
        photosDismissed: 0,
        referenceFacesGeneration: 0,
        ordersPending: 0,
        ordersPaid: 0,
        ordersExpired: 0,
        ordersCanceled: 0,
      },
    });
    expect(text.out).toMatch(
      /Shooting days \(2\)[\s\S]*First day[\s\S]*Second day[\s\S]*Packages \(1\)[\s\S]*Form fields \(1\)/,
    );
  });
});

describe('day, package and field commands', () => {
  let studio: TestTenant;
  beforeEach(async () => {
    studio = await createTestTenant();
  });
  const inGallery = () => ['--tenant', studio.slug, '--gallery', studio.token];

  it('adds a shooting day with and without capacity, and lists days by date', async () => {
    // Act
    const limited = await admin(
      'day',
      'add',
      ...inGallery(),
      '--date',
      '2027-02-28',
      '--label',
      'Early',
      '--start',
      '08:00',
      '--end',
      '08:30',
      '--max',
      '12',
      '--json',
    );
    const open = await admin(
      'day',
      'add',
      ...inGallery(),
      '--date',
      '2027-04-01',
      '--label',
      'Late',
      '--start',
      '10:00',
      '--end',
      '18:00',
    );
    const listed = await admin('day', 'list', ...inGallery(), '--json');
    // Assess
    expect([limited.code, open.code]).toEqual([0, 0]);
    const days = (await getGalleryConfiguration(studio.tenant.tenantId, studio.token))!.shootingDays;
    expect(days).toContainEqual(
      expect.objectContaining({
        id: limited.json().id,
        date: '2027-02-28',
        label: 'Early',
        startTime: '08:00',
        endTime: '08:30',
        maxPersons: 12,
        booked: 0,
      }),
    );
    expect(days).toContainEqual(expect.objectContaining({ label: 'Late', maxPersons: undefined }));
    expect(listed.json().map((day: { date: string }) => day.date)).toEqual([
      '2027-02-28',
      '2027-03-01',
      '2027-03-02',
      '2027-04-01',
    ]);
    // The counters a day's spots are counted on are bookkeeping, never output
    expect(days.find((day) => day.id === limited.json().id)?.spotCounters).toBeDefined();
    expect(Object.keys(limited.json()).sort()).toEqual([
      'booked',
      'date',
      'endTime',
      'id',
      'label',
      'maxPersons',
      'startTime',
    ]);
    expect(listed.json().filter((day: object) => 'spotCounters' in day)).toEqual([]);
  });

  it('adds a package with the currency lowercased, after the existing ones, and lists packages', async () => {
    // Act
    const added = await admin(
      'package',
      'add',
      ...inGallery(),
      '--name',
      'Premium',
      '--price',
      '2900',
      '--currency',
      'EUR',
      '--description',
      'Five portraits',
    );
    const listed = await admin('package', 'list', ...inGallery());
    // Assess
    expect(added.code).toBe(0);
    const packages = (await getGalleryConfiguration(studio.tenant.tenantId, studio.token))!.packages;
    expect(packages).toContainEqual(
      expect.objectContaining({
        name: 'Premium',
        price: 2900,
        currency: 'eur',
        description: 'Five portraits',
        position: 2,
      }),
    );
    expect(listed.out).toMatch(/Standard[\s\S]*Premium\s+29\.00 EUR/);
  });

  it('sets a built-in field and a select field with options', async () => {
    // Act
    const builtIn = await admin(
      'field',
      'set',
      ...inGallery(),
      '--key',
      'employeeId',
      '--label',
      'Staff number',
      '--type',
      'text',
      '--required',
      '--position',
      '0',
    );
    const select = await admin(
      'field',
      'set',
      ...inGallery(),
      '--key',
      'custom',
      '--label',
      'Background',
      '--type',
      'select',
      '--options',
      'white=White,grey=Light grey',
      '--disabled',
      '--json',
    );
    // Assess
    expect([builtIn.code, select.code]).toEqual([0, 0]);
    expect(select.json().key).toMatch(/^custom-[0-9a-f-]{36}$/);
    const fields = (await getGalleryConfiguration(studio.tenant.tenantId, studio.token))!.formFields;
    expect(fields).toEqual(
      expect.arrayContaining([
        {
          key: 'employeeId',
          label: 'Staff number',
          type: 'text',
          required: true,
          enabled: true,
          position: 0,
          options: undefined,
        },
        {
          key: select.json().key,
          label: 'Background',
          type: 'select',
          required: false,
          enabled: false,
          position: 1,
          options: [
            { value: 'white', label: 'White' },
            { value: 'grey', label: 'Light grey' },
          ],
        },
      ]),
    );
    expect((await admin('field', 'list', ...inGallery())).out).toMatch(
      /employeeId[\s\S]*custom-.*Background.*no\s+white=White, grey=Light grey/,
    );
  });

  it('replaces an existing custom field in place, keeping its position', async () => {
    // Prepare
    const created = await admin(
      'field',
      'set',
      ...inGallery(),
      '--key',
      'custom',
      '--label',
      'Shirt size',
      '--type',
      'text',
      '--position',
      '7',
      '--json',
    );
    // Act
    const replaced = await admin(
      'field',
      'set',
      ...inGallery(),
      '--key',
      created.json().key,
      '--label',
      'Years',
      '--type',
      'number',
    );
    // Assess
    expect(replaced.code).toBe(0);
    expect(replaced.out).toContain(`Replaced form field ${created.json().key}`);
    const fields = (await getGalleryConfiguration(studio.tenant.tenantId, studio.token))!.formFields;
    expect(fields).toEqual([
      expect.objectContaining({ key: created.json().key, label: 'Years', type: 'number', position: 7 }),
    ]);
  });

  it('writes nothing when an option is invalid', async () => {
    // Prepare
    const before = await getGalleryConfiguration(studio.tenant.tenantId, studio.token);
    // Act
    const runs = [
      await admin(
        'day',
        'add',
        ...inGallery(),
        '--date',
        '2027-02-30',
        '--label',
        'X',
        '--start',
        '09:00',
        '--end',
        '10:00',
      ),
      await admin('package', 'add', ...inGallery(), '--name', 'X', '--price', '1', '--currency', 'xyz'),
      await admin('field', 'set', ...inGallery(), '--key', 'phone', '--label', 'X', '--type', 'checkbox'),
    ];
    // Assess
    expect(runs.map((run) => run.code)).toEqual([2, 2, 2]);
    expect(await getGalleryConfiguration(studio.tenant.tenantId, studio.token)).toEqual(before);
  });
});

describe('bad input', () => {
  let studio: TestTenant;
  let other: TestTenant;
  beforeAll(async () => {
    [studio, other] = await Promise.all([createTestTenant(), createTestTenant()]);
  });
  const tenant = () => ['--tenant', studio.slug];
  const gallery = () => [...tenant(), '--gallery', studio.token];
  const dayIn = (token: string, ...options: string[]) => [
    'day',
    'add',
    ...tenant(),
    '--gallery',
    token,
    '--date',
    '2027-05-01',
    '--label',
    'D',
    '--start',
    '09:00',
    '--end',
    '17:00',
    ...options,
  ];
  const day = (...options: string[]) => dayIn(studio.token, ...options);
  const pkg = (...options: string[]) => ['package', 'add', ...gallery(), '--name', 'P', '--price', '100', ...options];
  const field = (...options: string[]) => ['field', 'set', ...gallery(), '--label', 'L', ...options];
  const newTenant = (...options: string[]) => ['tenant', 'create', '--name', 'N', ...options];

  it.each<[string, () => string[], RegExp]>([
    ['no command', () => [], /No command given/],
    ['an unknown command', () => ['tenants', 'list'], /Unknown command "tenants"/],
    ['a resource without a command', () => ['tenant'], /"tenant" needs a command: create, update, show, list/],
    ['an unknown subcommand', () => ['tenant', 'delete'], /Unknown command "tenant delete"/],
    ['an unknown option', () => ['tenant', 'list', '--all'], /Unknown option --all for "tenant list"/],
    ['a stray argument', () => ['tenant', 'list', 'everything'], /Unexpected argument "everything"/],
    ['an option without its value', () => ['tenant', 'show', '--slug'], /--slug needs a value/],
    [
      'a value for a flag',
      () => [...field('--key', 'phone', '--type', 'text'), '--required=yes'],
      /--required is a flag/,
    ],
    ['a missing required option', () => newTenant('--plan', 'creator'), /--slug is required/],
    ['a blank name', () => ['key', 'create', ...tenant(), '--name', '  '], /--name must not be empty/],
    ['an invalid slug', () => newTenant('--slug', 'Not A Slug!', '--plan', 'creator'), /not a valid tenant slug/],
    [
      'a slug that is too long',
      () => newTenant('--slug', 'a'.repeat(64), '--plan', 'creator'),
      /not a valid tenant slug/,
    ],
    [
      'an unknown plan tier',
      () => newTenant('--slug', uniqueSlug(), '--plan', 'gold'),
      /"gold" is not a plan tier: use one of free, starter/,
    ],
    [
      'a malformed Stripe account',
      () => newTenant('--slug', uniqueSlug(), '--plan', 'pro', '--stripe-account', 'stripe'),
      /not a Stripe account ID/,
    ],
    [
      'payment approval not true or false',
      () => ['tenant', 'update', '--slug', studio.slug, '--payment-approved', 'yes'],
      /must be true or false/,
    ],
    ['an update without changes', () => ['tenant', 'update', '--slug', studio.slug], /Nothing to update/],
    [
      'an unknown selfie mode',
      () => ['gallery', 'create', ...tenant(), '--name', 'G', '--selfie', 'always'],
      /--selfie "always" is not valid/,
    ],
    [
      'both group-shoot flags',
      () => ['gallery', 'create', ...tenant(), '--name', 'G', '--group-shoot', '--not-group-shoot'],
      /either --group-shoot or --not-group-shoot/,
    ],
    [
      'an unknown granular consent',
      () => ['gallery', 'create', ...tenant(), '--name', 'G', '--granular-consents', 'face,voice'],
      /"voice" is not valid/,
    ],
    ['a malformed gallery token', () => ['gallery', 'show', ...tenant(), '--gallery', '../etc'], /not a gallery token/],
    ['an impossible date', () => day('--date', '2027-02-30'), /"2027-02-30" is not a date in the form YYYY-MM-DD/],
    ['a date in another format', () => day('--date', '01.05.2027'), /not a date in the form YYYY-MM-DD/],
    ['an hour past 23', () => day('--start', '24:00'), /--start "24:00" is not a time in the form HH:MM/],
    ['a time without a leading zero', () => day('--end', '9:30'), /--end "9:30" is not a time/],
    [
      'an end before the start',
      () => day('--start', '17:00', '--end', '09:00'),
      /--end 09:00 must be after --start 17:00/,
    ],
    ['an end equal to the start', () => day('--start', '09:00', '--end', '09:00'), /must be after/],
    ['a negative capacity', () => day('--max=-5'), /--max must be a whole number of at least 1, not "-5"/],
    ['a negative capacity as a separate word', () => day('--max', '-5'), /--max needs a value/],
    ['a capacity of zero', () => day('--max', '0'), /--max must be a whole number of at least 1/],
    ['a fractional capacity', () => day('--max', '2.5'), /--max must be a whole number/],
    ['an unknown currency', () => pkg('--currency', 'xyz'), /"xyz" is not an ISO 4217 currency code/],
    ['a currency that is not a code', () => pkg('--currency', 'euro'), /not an ISO 4217 currency code/],
    [
      'a fractional price',
      () => ['package', 'add', ...gallery(), '--name', 'P', '--price', '9.99', '--currency', 'eur'],
      /--price must be a whole number of at least 0/,
    ],
    [
      'a negative price',
      () => ['package', 'add', ...gallery(), '--name', 'P', '--price=-1', '--currency', 'eur'],
      /--price must be a whole number/,
    ],
    [
      'an unknown field type',
      () => field('--key', 'phone', '--type', 'checkbox'),
      /--type "checkbox" is not valid: use one of text, textarea, number, select/,
    ],
    ['name as a field key', () => field('--key', 'name', '--type', 'text'), /name and email are always asked/],
    ['email as a field key', () => field('--key', 'email', '--type', 'text'), /are not form fields/],
    [
      'a built-in key in the wrong case',
      () => field('--key', 'employeeid', '--type', 'text'),
      /"employeeid" is not a form field key/,
    ],
    [
      'a custom key that is not a UUID',
      () => field('--key', 'custom-123', '--type', 'text'),
      /"custom-123" is not a form field key/,
    ],
    [
      'a select without options',
      () => field('--key', 'department', '--type', 'select'),
      /--options is required for --type select/,
    ],
    [
      'options on a text field',
      () => field('--key', 'department', '--type', 'text', '--options', 'a=A'),
      /--options is only for --type select/,
    ],
    [
      'an option without a label',
      () => field('--key', 'department', '--type', 'select', '--options', 'a=A,b'),
      /entry "b" is not of the form value=Label/,
    ],
    [
      'an option value given twice',
      () => field('--key', 'department', '--type', 'select', '--options', 'a=A,a=B'),
      /lists the value "a" twice/,
    ],
  ])('exits 2 with one line for %s', async (_case, argv, message) => {
    // Act
    const run = await admin(...argv());
    // Assess
    expectFailure(run, 2, message);
  });

  it.each<[string, () => string[], RegExp]>([
    ['an unknown tenant', () => ['tenant', 'show', '--slug', 'no-such-studio'], /No tenant with slug "no-such-studio"/],
    [
      'an update of an unknown tenant',
      () => ['tenant', 'update', '--slug', 'no-such-studio', '--plan', 'pro'],
      /No tenant with slug/,
    ],
    ['keys of an unknown tenant', () => ['key', 'list', '--tenant', 'no-such-studio'], /No tenant with slug/],
    ['a second tenant with the same slug', () => newTenant('--slug', studio.slug, '--plan', 'pro'), /exists already/],
    [
      'an unknown key ID',
      () => ['key', 'disable', ...tenant(), '--id', 'key_nope'],
      /has no API key with ID "key_nope"/,
    ],
    [
      'an unknown gallery',
      () => ['gallery', 'show', ...tenant(), '--gallery', 'nosuchgallery'],
      /has no gallery with token "nosuchgallery"/,
    ],
    [
      'an update of an unknown gallery',
      () => ['gallery', 'update', ...tenant(), '--gallery', 'nosuchgallery', '--name', 'X'],
      /has no gallery/,
    ],
    [
      "another tenant's gallery",
      () => ['day', 'list', ...tenant(), '--gallery', other.token],
      /has no gallery with token/,
    ],
    ['a day for an unknown gallery', () => dayIn('nosuchgallery'), /has no gallery/],
    [
      'a custom field that does not exist',
      () => field('--key', `custom-${randomUUID()}`, '--type', 'text'),
      /has no form field "custom-.*"; use --key custom/,
    ],
  ])('exits 1 with one line for %s', async (_case, argv, message) => {
    const run = await admin(...argv());
    expectFailure(run, 1, message);
  });
});

describe('help and environment', () => {
  it.each([['help'], ['--help'], ['-h']])('prints every command for %s and exits 0', async (word) => {
    const run = await admin(word);
    expect(run.code).toBe(0);
    for (const resource of Object.values(COMMAND_CATALOG)) {
      for (const command of Object.values(resource.commands)) expect(run.out).toContain(command.usage);
    }
  });

  it('prints the usage of one command with --help, without touching the table', async () => {
    const run = await admin('day', 'add', '--help');
    expect(run).toEqual(expect.objectContaining({ code: 0, err: [] }));
    expect(run.out).toBe(`Usage: npm run admin -- ${COMMAND_CATALOG.day!.commands.add!.usage}`);
  });

  it.each(Object.entries(COMMAND_CATALOG))(
    'has a handler for every %s command and no other',
    async (_name, resource) => {
      const handlers = await resource.loadHandlers();
      expect(Object.keys(handlers).sort()).toEqual(Object.keys(resource.commands).sort());
    },
  );

  describe('without TABLE_NAME: the running npm start', () => {
    let workingDirectory: string;
    beforeEach(() => {
      workingDirectory = mkdtempSync(join(tmpdir(), 'admin-cli-'));
    });
    afterEach(() => {
      rmSync(workingDirectory, { recursive: true, force: true });
    });

    // In a directory of its own: the repository's may name an npm start another test file runs.
    it('exits 2 with one line when TABLE_NAME is not set and no npm start runs', async () => {
      const run = await adminIn({ env: {}, workingDirectory }, 'tenant', 'list');
      expectFailure(run, 2, /^TABLE_NAME is not set: /);
    });

    it('refuses to choose between two running servers, naming both ports', async () => {
      // Prepare
      writeServerFile(workingDirectory, {
        pid: LIVE_PROCESS_IDS[0],
        port: 3000,
        tableName: 'one',
        dynamoDbEndpoint: 'http://127.0.0.1:1',
      });
      writeServerFile(workingDirectory, {
        pid: LIVE_PROCESS_IDS[1],
        port: 3001,
        tableName: 'two',
        dynamoDbEndpoint: 'http://127.0.0.1:2',
      });
      const env: NodeJS.ProcessEnv = {};
      // Act
      const run = await adminIn({ env, workingDirectory }, 'tenant', 'list');
      // Assess
      expectFailure(
        run,
        2,
        /^2 local servers run from .*port 3000 .*port 3001 .*; name one with --data DIR .*, or set TABLE_NAME/,
      );
      expect(env).toEqual({});
    });

    it('ignores the file of a server that has stopped', async () => {
      writeServerFile(workingDirectory, {
        pid: await stoppedProcessId(),
        port: 3000,
        tableName: 'gone',
        dynamoDbEndpoint: 'http://127.0.0.1:1',
      });
      const run = await adminIn({ env: {}, workingDirectory }, 'tenant', 'list');
      expectFailure(run, 2, /^TABLE_NAME is not set: /);
    });

    it('refuses --data DIR when TABLE_NAME is set too', async () => {
      const run = await adminIn(
        { env: { TABLE_NAME: 'deployed-table' }, workingDirectory },
        'tenant',
        'list',
        '--data',
        'data',
      );
      expectFailure(run, 2, /^--data data names a local server, but TABLE_NAME is set/);
    });
  });

  it.each<[string, string[]]>([
    [
      'photo add',
      ['photo', 'add', '--tenant', 'acme', '--gallery', 'n9v9wd7vm8h9uu9v', '--person', 'per_x', '--file', 'x.jpg'],
    ],
    ['person erase', ['person', 'erase', '--tenant', 'acme', '--gallery', 'n9v9wd7vm8h9uu9v', '--person', 'per_x']],
    ['gallery erase', ['gallery', 'erase', '--tenant', 'acme', '--gallery', 'n9v9wd7vm8h9uu9v']],
  ])('exits 2 for %s without MEDIA_BUCKET, before reading anything', async (_case, argv) => {
    // Act: TABLE_NAME names no table at all, so a read would fail with exit code 1.
    const run = await adminIn({ env: { TABLE_NAME: 'no-such-table' }, workingDirectory: tmpdir() }, ...argv);
    // Assess
    expectFailure(run, 2, /^MEDIA_BUCKET is not set: export MEDIA_BUCKET /);
  });
});

describe('the real CLI process', () => {
  const repository = resolve(__dirname, '../..');
  const tsx = join(repository, 'node_modules', '.bin', 'tsx');
  const cli = join(repository, 'scripts', 'admin', 'cli.ts');
  let studio: TestTenant;
  let emptyDirectory: string;
  beforeAll(async () => {
    studio = await createTestTenant();
    emptyDirectory = mkdtempSync(join(tmpdir(), 'admin-cli-process-'));
  });
  afterAll(() => {
    rmSync(emptyDirectory, { recursive: true, force: true });
  });

  /** `tsx scripts/admin/cli.ts ...args` as a child process; runs in an empty directory unless told. */
  function runCli(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}) {
    return new Promise<{ code: number; stdout: string; stderr: string }>((resolvePromise, reject) => {
      execFile(
        tsx,
        [cli, ...args],
        { cwd: options.cwd ?? emptyDirectory, env: options.env ?? process.env, timeout: 60_000 },
        (error, stdout, stderr) => {
          if (error && typeof error.code !== 'number') reject(new Error('the command could not run', { cause: error }));
          else resolvePromise({ code: error ? Number(error.code) : 0, stdout, stderr });
        },
      );
    });
  }

  it('exits 0 and prints JSON for a successful command', async () => {
    const slug = uniqueSlug('proc');
    const result = await runCli([
      'tenant',
      'create',
      '--slug',
      slug,
      '--name',
      'Process Studio',
      '--plan',
      'creator',
      '--json',
    ]);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toEqual(expect.objectContaining({ slug, name: 'Process Studio' }));
    expect((await getTenantBySlug(slug))?.plan?.tier).toBe('creator');
  });

  it.each<[string, () => string[], number, RegExp]>([
    [
      'an invalid date',
      () => [
        'day',
        'add',
        '--tenant',
        studio.slug,
        '--gallery',
        studio.token,
        '--date',
        '2027-13-01',
        '--label',
        'D',
        '--start',
        '09:00',
        '--end',
        '10:00',
      ],
      2,
      /is not a date/,
    ],
    [
      'an unknown tenant',
      () => ['tenant', 'show', '--slug', 'no-such-studio'],
      1,
      /No tenant with slug "no-such-studio"/,
    ],
  ])('exits non-zero with one line on standard error for %s', async (_case, args, code, message) => {
    const result = await runCli(args());
    expect(result).toEqual({ code, stdout: '', stderr: expect.stringMatching(message) });
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('exits 2 when TABLE_NAME is not set and no local API file exists', async () => {
    const { TABLE_NAME: _tableName, ...env } = process.env;
    const result = await runCli(['tenant', 'list'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr.trimEnd()).toMatch(/^TABLE_NAME is not set: [^\n]+$/);
  });

  it.each<[string, () => string[]]>([
    ['gallery list', () => ['gallery', 'list', '--tenant', studio.slug]],
    [
      'gallery create',
      () => ['gallery', 'create', '--tenant', studio.slug, '--name', 'No Bucket Needed', '--group-shoot'],
    ],
    ['gallery retention', () => ['gallery', 'retention', '--tenant', studio.slug, '--gallery', studio.token]],
    ['photo unassigned', () => ['photo', 'unassigned', '--tenant', studio.slug, '--gallery', studio.token]],
    ['gallery limits', () => ['gallery', 'limits', '--tenant', studio.slug, '--gallery', studio.token]],
    ['gallery checkin-policy', () => ['gallery', 'checkin-policy', '--tenant', studio.slug, '--gallery', studio.token]],
  ])('runs %s with TABLE_NAME set and no MEDIA_BUCKET, as docs/admin-cli.md says', async (_case, args) => {
    // Prepare: only the table; the media bucket is needed by the commands that write or delete media alone.
    const { MEDIA_BUCKET: _bucket, ...env } = process.env;
    // Act
    const result = await runCli(args(), { env });
    // Assess
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
  });

  it('loads the handlers of every resource with a command that does not name MEDIA_BUCKET, without MEDIA_BUCKET', async () => {
    // Prepare: a fresh process, as an operator's shell is; modules that read a variable on import fail there.
    const resources = Object.entries(COMMAND_CATALOG)
      .filter(([, resource]) =>
        Object.values(resource.commands).some((command) => !command.environment?.includes('MEDIA_BUCKET')),
      )
      .map(([name]) => name);
    const { MEDIA_BUCKET: _bucket, ...env } = process.env;
    const probe = [
      "const { COMMAND_CATALOG } = require('./scripts/admin/command-catalog');",
      `const names = ${JSON.stringify(resources)};`,
      'Promise.all(names.map((name) => COMMAND_CATALOG[name].loadHandlers().then(() => name + " loaded", (error) => name + " failed: " + error.message)))',
      '  .then((lines) => console.log(lines.join("\\n")));',
    ].join('\n');
    // Act
    const result = await new Promise<{ stdout: string; stderr: string }>((resolvePromise, reject) => {
      execFile(tsx, ['-e', probe], { cwd: repository, env, timeout: 60_000 }, (error, stdout, stderr) =>
        error ? reject(new Error('the probe failed', { cause: error })) : resolvePromise({ stdout, stderr }),
      );
    });
    // Assess
    expect(result.stdout.trimEnd().split('\n').sort()).toEqual(resources.map((name) => `${name} loaded`).sort());
  });

  /** `tsx scripts/admin/cli.ts ...args | reader` in bash: the CLI's exit status and what the reader and standard error got. */
  function runPiped(args: string[], reader: string) {
    const quoted = [tsx, cli, ...args].map((word) => `'${word.replace(/'/g, "'\\''")}'`).join(' ');
    return new Promise<{ cliStatus: number; stdout: string; stderr: string }>((resolvePromise, reject) => {
      execFile(
        'bash',
        ['-c', `${quoted} | ${reader}; exit "\${PIPESTATUS[0]}"`],
        { cwd: emptyDirectory, env: process.env, timeout: 60_000 },
        (error, stdout, stderr) => {
          if (error && typeof error.code !== 'number') reject(new Error('the command could not run', { cause: error }));
          else resolvePromise({ cliStatus: error ? Number(error.code) : 0, stdout, stderr });
        },
      );
    });
  }

  it.each<[string, () => string[]]>([
    ['help', () => ['help']],
    ['gallery limits', () => ['gallery', 'limits', '--tenant', studio.slug, '--gallery', studio.token]],
    ['tenant list --json', () => ['tenant', 'list', '--json']],
  ])('%s piped to head -1 prints its first line and exits 0, without EPIPE', async (_case, args) => {
    // Act
    const result = await runPiped(args(), 'head -1');
    // Assess
    expect(result).toEqual({ cliStatus: 0, stdout: expect.stringMatching(/^[^\n]+\n$/), stderr: '' });
  });

  it('exits 0 without a word on standard error when its reader is gone before the first line', async () => {
    // Act: `true` exits at once, long before the CLI writes: its first write meets a closed pipe.
    const result = await runPiped(['help'], 'true');
    // Assess
    expect(result).toEqual({ cliStatus: 0, stdout: '', stderr: '' });
  });

  describe('without TABLE_NAME: the running npm start', () => {
    const { TABLE_NAME: tableName, DYNAMODB_ENDPOINT: endpoint, ...withoutTable } = process.env;
    let workDirectory: string;
    beforeEach(() => {
      workDirectory = mkdtempSync(join(tmpdir(), 'admin-cli-local-'));
    });
    afterEach(() => {
      rmSync(workDirectory, { recursive: true, force: true });
    });

    it('uses the table of the one server running from this folder, and says so', async () => {
      // Prepare: this test process plays the server, as its process ID runs.
      const file = writeServerFile(workDirectory, {
        pid: process.pid,
        port: 3000,
        tableName,
        dynamoDbEndpoint: endpoint,
      });
      // Act
      const result = await runCli(['tenant', 'show', '--slug', studio.slug], { env: withoutTable, cwd: workDirectory });
      // Assess
      expect(result.code).toBe(0);
      expect(result.stderr.trimEnd()).toBe(
        `Using the local table "${tableName}" at ${endpoint} (npm start on port 3000, from ${file})`,
      );
      expect(result.stdout).toContain(studio.tenant.tenantId);
    });

    it('uses the table of the server --data DIR names, beside another one', async () => {
      // Prepare
      writeServerFile(workDirectory, {
        pid: process.ppid,
        port: 3000,
        tableName: 'another-servers-table',
        dynamoDbEndpoint: endpoint,
      });
      const dataDir = join(workDirectory, 'data');
      writeServerFile(workDirectory, { pid: process.pid, port: 3001, tableName, dynamoDbEndpoint: endpoint, dataDir });
      // Act
      const result = await runCli(['tenant', 'show', '--slug', studio.slug, '--data', dataDir], {
        env: withoutTable,
        cwd: workDirectory,
      });
      // Assess
      expect(result.code).toBe(0);
      expect(result.stderr).toContain(`Using the local table "${tableName}"`);
      expect(result.stderr).toContain(`from ${join(dataDir, 'local-api.json')}`);
      expect(result.stdout).toContain(studio.tenant.tenantId);
    });

    it('reads no connection file when TABLE_NAME is set', async () => {
      // Prepare: a running server whose table does not exist; the environment names the real one.
      writeServerFile(workDirectory, {
        pid: process.pid,
        port: 3000,
        tableName: 'not-this-table',
        dynamoDbEndpoint: 'http://127.0.0.1:1',
      });
      // Act
      const result = await runCli(['tenant', 'show', '--slug', studio.slug], { cwd: workDirectory });
      // Assess
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
      expect(result.stdout).toContain(studio.tenant.tenantId);
    });
  });
});

describe("tenant's share of the check-in route", () => {
  it('sets check-in attempts a second, shows them, keeps them on other updates, and refuses more than 500', async () => {
    const slug = uniqueSlug('share');
    await admin('tenant', 'create', '--slug', slug, '--name', 'Share Studio', '--plan', 'creator');
    const before = await admin('tenant', 'show', '--slug', slug);
    const updated = await admin('tenant', 'update', '--slug', slug, '--checkins-per-second', '250');
    const renamed = await admin('tenant', 'update', '--slug', slug, '--name', 'Share Studio 2');
    const refused = await admin('tenant', 'update', '--slug', slug, '--checkins-per-second', '501');
    expect([updated.code, renamed.code, refused.code]).toEqual([0, 0, 2]);
    expect(before.out).toContain('100 check-in attempts a second (the defaults)');
    expect(updated.out).toContain('250 check-in attempts a second');
    expect((await getTenantBySlug(slug))?.publicShare).toEqual({ checkinsPerSecond: 250 });
  });
});

describe('tenant platform fee', () => {
  it('sets the platform fee in basis points and refuses more than 50 %', async () => {
    const slug = uniqueSlug('fee');
    const created = await admin(
      'tenant',
      'create',
      '--slug',
      slug,
      '--name',
      'Fee Studio',
      '--plan',
      'creator',
      '--platform-fee-bps',
      '250',
    );
    const updated = await admin('tenant', 'update', '--slug', slug, '--platform-fee-bps', '300');
    const refused = await admin('tenant', 'update', '--slug', slug, '--platform-fee-bps', '5001');
    expect([created.code, updated.code, refused.code]).toEqual([0, 0, 2]);
    expect((await getTenantBySlug(slug))?.platformFeeBps).toBe(300);
  });
});
