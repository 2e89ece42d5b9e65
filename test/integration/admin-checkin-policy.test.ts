import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { getGalleryConfiguration } from '#lib/galleries/store/galleries';
import { insertPersonsWithCodes } from '#lib/persons/store/access-code-allocation';
import { importedPersonsWithEmail } from '#lib/persons/store/guest-list';
import { importedPersonDraft } from '#lib/persons/rules/person-import';
import { db, tableName } from '#lib/platform/table/client';
import { keys } from '../support/table-keys';
import { admin } from '../support/admin';
import { type TestTenant, createTestTenant } from '../support/factories';
import { useTestTable } from '../support/test-table';

useTestTable();

const policy = (studio: TestTenant, ...options: string[]) =>
  admin('gallery', 'checkin-policy', '--tenant', studio.slug, '--gallery', studio.token, ...options);
const storedPolicy = async (studio: TestTenant) =>
  (await getGalleryConfiguration(studio.tenant.tenantId, studio.token))?.gallery.checkinPolicy;

describe('gallery checkin-policy (admin CLI)', () => {
  it('shows an open gallery with any domain where none is set', async () => {
    const studio = await createTestTenant();
    const run = await policy(studio, '--json');
    expect([run.code, run.json()]).toEqual([0, { mode: 'open', allowedEmailDomains: [] }]);
  });

  it('sets the mode and the domains (stored in lower case, once each), and keeps what it is not given', async () => {
    // Prepare
    const studio = await createTestTenant();
    // Act
    const first = await policy(studio, '--mode', 'importedOnly', '--domains', 'Example.com, *.example.org,example.com');
    const second = await policy(studio, '--domains', 'example.net');
    // Assess
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/mode\s+importedOnly/);
    expect(first.out).toMatch(/email domains\s+example\.com, \*\.example\.org/);
    expect(second.code).toBe(0);
    expect(await storedPolicy(studio)).toEqual({ mode: 'importedOnly', allowedEmailDomains: ['example.net'] });
  });

  it('drops the domain rule with --any-domain and opens the gallery with --mode open', async () => {
    const studio = await createTestTenant();
    await policy(studio, '--mode', 'importedOnly', '--domains', 'example.com');
    const run = await policy(studio, '--mode', 'open', '--any-domain', '--json');
    expect(run.json()).toEqual({ mode: 'open', allowedEmailDomains: [] });
    expect(await storedPolicy(studio)).toEqual({ mode: 'open', allowedEmailDomains: [] });
  });

  it('puts persons imported before the guest list existed on it as the gallery turns importedOnly', async () => {
    // Prepare: two imported persons with an address and one without, their code items as an older version wrote them.
    const studio = await createTestTenant();
    const scope = { tenantId: studio.tenant.tenantId, token: studio.token };
    const rows = [
      { name: 'Ada Lovelace', email: 'ada@example.com', employeeId: null, shootingDayId: null },
      { name: 'Grace Hopper', email: 'Grace@Example.com', employeeId: 'E-2', shootingDayId: null },
      { name: 'Alan Turing', email: null, employeeId: 'E-3', shootingDayId: null },
    ];
    const { written } = await insertPersonsWithCodes(
      scope,
      rows.map((row) => importedPersonDraft(row, new Date().toISOString())),
    );
    for (const person of written) {
      await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.accessCode(scope.tenantId, scope.token, person.code),
          UpdateExpression: 'REMOVE gsi1pk, gsi1sk',
        }),
      );
    }
    const before = await importedPersonsWithEmail(scope, 'grace@example.com');
    // Act
    const run = await policy(studio, '--mode', 'importedOnly');
    const again = await policy(studio, '--mode', 'importedOnly');
    // Assess
    expect(before).toEqual([]);
    expect([run.code, again.code]).toEqual([0, 0]);
    expect(run.out).toContain('2 imported person(s) with an email address on the guest list');
    expect(again.out).toContain('2 imported person(s) with an email address on the guest list');
    expect((await importedPersonsWithEmail(scope, ' grace@example.COM')).map((person) => person.name)).toEqual([
      'Grace Hopper',
    ]);
    expect((await importedPersonsWithEmail(scope, 'ada@example.com')).map((person) => person.name)).toEqual([
      'Ada Lovelace',
    ]);
  });

  it.each([
    [['--mode', 'invited'], /--mode/],
    [['--domains', 'example'], /"example" is not a domain/],
    [['--domains', 'ada@example.com'], /is not a domain/],
    [['--domains', '*.com'], /is not a domain/],
    [['--domains', ','], /at least one domain/],
    [['--domains', Array.from({ length: 21 }, (_, index) => `d${index}.example`).join(',')], /at most 20/],
    [['--domains', 'example.com', '--any-domain'], /either --domains or --any-domain/],
  ])('refuses %j as a usage error, changing nothing', async (options, message) => {
    const studio = await createTestTenant();
    const run = await policy(studio, ...options);
    expect([run.code, run.err.join('\n')]).toEqual([2, expect.stringMatching(message)]);
    expect(await storedPolicy(studio)).toBeUndefined();
  });
});

describe('gallery invitations (admin CLI)', () => {
  it('prints a check-in link for each person imported without an address who has not checked in', async () => {
    // Prepare
    const studio = await createTestTenant();
    const scope = { tenantId: studio.tenant.tenantId, token: studio.token };
    const { written } = await insertPersonsWithCodes(
      scope,
      [
        { name: 'Grace Hopper', email: null, employeeId: 'E-7', shootingDayId: null },
        { name: 'Ada Lovelace', email: 'ada@example.com', employeeId: 'E-1', shootingDayId: null },
      ].map((row) => importedPersonDraft(row, new Date().toISOString())),
    );
    const grace = written.find((person) => person.name === 'Grace Hopper')!;
    // Act
    const run = await admin(
      'gallery',
      'invitations',
      '--tenant',
      studio.slug,
      '--gallery',
      studio.token,
      '--page-url',
      'https://checkin.example.com/',
      '--json',
    );
    const withoutUrl = await admin('gallery', 'invitations', '--tenant', studio.slug, '--gallery', studio.token);
    // Assess
    expect(run.code).toBe(0);
    expect(run.json()).toEqual([
      {
        personId: grace.personId,
        name: 'Grace Hopper',
        employeeId: 'E-7',
        checkinUrl: expect.stringMatching(
          new RegExp(`^https://checkin\\.example\\.com/\\?tenant=${studio.slug}&token=${studio.token}#invitation/`),
        ),
        expiresAt: expect.any(String),
      },
    ]);
    expect(withoutUrl.code).not.toBe(0);
  });
});
