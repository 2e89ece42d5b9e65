import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GroupShootClient } from '#lib/client/groupshoot-client';
import { keys } from '#lib/db/keys';
import { queryPartition } from '#lib/db/queries';
import { runImport } from '../../scripts/import/run-import';
import { useLocalApi } from '../support/local-api';
import { type TestTenant, createTestTenant } from '../support/factories';

const api = useLocalApi();

/** 2,000 HR rows; per hundred: a bad email, a missing name, a duplicate employee ID, an unknown day. */
function hrExport(): string {
  const lines = ['Personal-Nr,Full Name,E-Mail,Shooting Date'];
  for (let index = 0; index < 2000; index += 1) {
    const kind = index % 100;
    const employeeId = kind === 4 ? `E${index - 1}` : `E${index}`;
    const name = kind === 2 ? '' : `"Person ${index}, Jr."`;
    const email = kind === 1 ? 'not-an-email' : `p${index}@example.com`;
    const date = kind === 5 ? '2030-01-01' : ['2027-03-01', '2027-03-02', ''][index % 3];
    lines.push([employeeId, name, email, date].join(','));
  }
  return `${lines.join('\n')}\n`;
}

describe('npm run import', () => {
  let studio: TestTenant;
  let file: string;
  const output: string[] = [];
  const io = { out: (line: string) => output.push(line), err: (line: string) => output.push(line), interactive: false };
  const run = (...extra: string[]) =>
    runImport(
      [file, '--gallery', studio.token, '--map', 'name=Full Name,email=E-Mail,employeeId=Personal-Nr,day=Shooting Date', '--day-by', 'date', ...extra],
      io,
      new GroupShootClient({ baseUrl: api.url, tenantSlug: studio.slug, apiKey: studio.apiKey }),
    );

  beforeAll(async () => {
    studio = await createTestTenant();
    file = join(mkdtempSync(join(tmpdir(), 'import-')), 'hr-export.csv');
    writeFileSync(file, hrExport());
  });

  it('validates without writing in a dry run', async () => {
    const code = await run('--dry-run');
    const report = JSON.parse(readFileSync(`${file}.report.json`, 'utf8'));
    expect(code).toBe(0);
    expect(report.summary).toEqual(expect.objectContaining({ dryRun: true, rows: 2000, wouldImport: 1920, imported: 0, skipped: 80 }));
    expect(await queryPartition(keys.personsOfGallery(studio.tenant.tenantId, studio.token))).toHaveLength(0);
  });

  it('imports 2,000 rows with mixed errors, reporting each skipped line with its reason', async () => {
    // Act
    const code = await run();
    // Assess
    const report = JSON.parse(readFileSync(`${file}.report.json`, 'utf8'));
    expect(code).toBe(0);
    expect(report.summary).toEqual(
      expect.objectContaining({
        rows: 2000,
        imported: 1920,
        skipped: 80,
        byReason: { email_invalid: 20, name_required: 20, duplicate_in_file: 20, shooting_day_not_found: 20 },
      }),
    );
    expect(report.skipped.slice(0, 4)).toEqual([
      { line: 3, reason: 'email_invalid' },
      { line: 4, reason: 'name_required' },
      { line: 6, reason: 'duplicate_in_file' },
      { line: 7, reason: 'shooting_day_not_found' },
    ]);
    const stored = await queryPartition(keys.personsOfGallery(studio.tenant.tenantId, studio.token));
    expect(stored).toHaveLength(1920);
    expect(stored.find((person) => person.employeeId === 'E0')).toEqual(
      expect.objectContaining({ name: 'Person 0, Jr.', email: 'p0@example.com', shootingDayId: studio.days.earlier.id }),
    );
    expect(output.join('\n')).toContain('Imported 1920 of 2000 rows, 80 skipped.');
  }, 120_000);

  it('creates nothing when run again', async () => {
    const code = await run();
    const report = JSON.parse(readFileSync(`${file}.report.json`, 'utf8'));
    expect(code).toBe(0);
    expect(report.summary).toEqual(expect.objectContaining({ imported: 0, skipped: 2000 }));
    // Rows whose employee ID is in the gallery now are skipped as such, the file's duplicates included.
    expect(report.summary.byReason).toEqual({ already_imported: 1940, email_invalid: 20, name_required: 20, shooting_day_not_found: 20 });
    expect(await queryPartition(keys.personsOfGallery(studio.tenant.tenantId, studio.token))).toHaveLength(1920);
  }, 120_000);

  it.each([
    [[], 2],
    [['--gallery'], 2],
    [['nope.csv', '--gallery', 'x'], 2],
    [['FILE', '--gallery', 'x', '--day-by', 'weekday'], 2],
    [['FILE', '--gallery', 'x', '--map', 'colour=Farbe'], 2],
    [['FILE', '--gallery', 'no-such-gallery'], 1],
  ])('exits %j with %i and a message', async (argv, expectedCode) => {
    output.length = 0;
    const code = await runImport(
      argv.map((value) => (value === 'FILE' ? file : value)),
      io,
      new GroupShootClient({ baseUrl: api.url, tenantSlug: studio.slug, apiKey: studio.apiKey }),
    );
    expect(code).toBe(expectedCode);
    expect(output.join('\n').length).toBeGreaterThan(10);
  });
});
