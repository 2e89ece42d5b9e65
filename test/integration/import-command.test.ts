import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GroupShootClient } from '#lib/client/groupshoot-client';
import { keys } from '../support/table-keys';
import { queryPartition } from '#lib/platform/table/queries';
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
      [
        file,
        '--gallery',
        studio.token,
        '--map',
        'name=Full Name,email=E-Mail,employeeId=Personal-Nr,day=Shooting Date',
        '--day-by',
        'date',
        ...extra,
      ],
      io,
      new GroupShootClient({ baseUrl: api.url, tenantSlug: studio.slug, apiKey: studio.apiKey }),
    );

  beforeAll(async () => {
    studio = await createTestTenant();
    file = join(mkdtempSync(join(tmpdir(), 'import-')), 'hr-export.csv');
    writeFileSync(file, hrExport());
  });

  it('prints how it read the file and which columns it maps before sending', async () => {
    output.length = 0;
    await run('--dry-run');
    expect(output.slice(0, 6)).toEqual([
      `Read ${file} as text, UTF-8, separated by comma: 2000 rows.`,
      'Columns (--map, the rest recognised):',
      '  name       ← "Full Name"',
      '  email      ← "E-Mail"',
      '  employeeId ← "Personal-Nr"',
      '  day        ← "Shooting Date", matched by date',
    ]);
  });

  it('validates without writing in a dry run', async () => {
    const code = await run('--dry-run');
    const report = JSON.parse(readFileSync(`${file}.report.json`, 'utf8'));
    expect(code).toBe(0);
    expect(report.summary).toEqual(
      expect.objectContaining({ dryRun: true, rows: 2000, wouldImport: 1940, imported: 0, skipped: 60, warnings: 20 }),
    );
    expect(await queryPartition(keys.personsOfGallery(studio.tenant.tenantId, studio.token))).toHaveLength(0);
  });

  it('skips the rows with an unknown day in a dry run with --strict-days', async () => {
    const code = await run('--dry-run', '--strict-days');
    const report = JSON.parse(readFileSync(`${file}.report.json`, 'utf8'));
    expect(code).toBe(0);
    expect(report.summary).toEqual(expect.objectContaining({ wouldImport: 1920, skipped: 80, warnings: 0 }));
    expect(report.summary.byReason.shooting_day_not_found).toBe(20);
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
        imported: 1940,
        skipped: 60,
        byReason: { email_invalid: 20, name_required: 20, duplicate_in_file: 20 },
        // As the API does: a day the gallery does not have leaves the person without a day.
        warnings: 20,
        byWarning: { shooting_day_not_found: 20 },
      }),
    );
    expect(report.skipped.slice(0, 3)).toEqual([
      { line: 3, reason: 'email_invalid' },
      { line: 4, reason: 'name_required' },
      { line: 6, reason: 'duplicate_in_file' },
    ]);
    expect(report.warnings[0]).toEqual({ line: 7, warning: 'shooting_day_not_found', value: '2030-01-01' });
    const stored = await queryPartition(keys.personsOfGallery(studio.tenant.tenantId, studio.token));
    expect(stored).toHaveLength(1940);
    expect(stored.find((person) => person.employeeId === 'E0')).toEqual(
      expect.objectContaining({
        name: 'Person 0, Jr.',
        email: 'p0@example.com',
        shootingDayId: studio.days.earlier.id,
      }),
    );
    expect(stored.find((person) => person.employeeId === 'E5')).toEqual(
      expect.objectContaining({ shootingDayId: null }),
    );
    expect(output.join('\n')).toContain('Imported 1940 of 2000 rows, 60 skipped.');
    expect(output.join('\n')).toContain(
      'Warning: 20 rows were imported without a day (shooting_day_not_found: "2030-01-01")',
    );
    expect(output.filter((line) => line.startsWith('Imported rows '))).toEqual([
      'Imported rows 1–500 of 1940',
      'Imported rows 501–1000 of 1940',
      'Imported rows 1001–1500 of 1940',
      'Imported rows 1501–1940 of 1940',
    ]);
  }, 120_000);

  it('creates nothing when run again', async () => {
    const code = await run();
    const report = JSON.parse(readFileSync(`${file}.report.json`, 'utf8'));
    expect(code).toBe(0);
    expect(report.summary).toEqual(expect.objectContaining({ imported: 0, skipped: 2000 }));
    // Rows whose employee ID is in the gallery now are skipped as such, the file's duplicates included.
    expect(report.summary.byReason).toEqual({ already_imported: 1960, email_invalid: 20, name_required: 20 });
    expect(await queryPartition(keys.personsOfGallery(studio.tenant.tenantId, studio.token))).toHaveLength(1940);
  }, 120_000);

  it.each([
    [[], 2],
    [['--gallery'], 2],
    [['nope.csv', '--gallery', 'x'], 2],
    [['FILE', '--gallery', 'x', '--day-by', 'weekday'], 2],
    [['FILE', '--gallery', 'x', '--map', 'colour=Farbe'], 2],
    [['FILE', '--gallery', 'x', '--map', 'name=Nom'], 2],
    [['FILE', '--gallery', 'x', '--delimiter', ';;'], 2],
    [['FILE', '--gallery', 'x', '--encoding', 'klingon'], 2],
    [['FILE', '--gallery', 'x', '--sheet', 'Personal'], 2],
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
