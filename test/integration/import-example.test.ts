import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GroupShootClient } from '#lib/client/groupshoot-client';
import { addShootingDay } from '#lib/galleries/store/galleries';
import { runImport } from '../../scripts/import/run-import';
import { writeWorkbookOfCsv } from '../../examples/write-hr-export-xlsx';
import { useLocalApi } from '../support/local-api';
import { type TestTenant, createTestTenant } from '../support/factories';

const api = useLocalApi();

const SAMPLE = join(__dirname, '..', '..', 'examples', 'hr-export.csv');

/** A gallery with the demo gallery's day labels (scripts/local/seed-demo.ts), which the sample's day column names. */
async function studioWithDemoDays(): Promise<{ studio: TestTenant; dayIds: Record<string, string> }> {
  const studio = await createTestTenant();
  const dayIds: Record<string, string> = {};
  for (const [offset, label] of ['Headquarters', 'Open day'].entries()) {
    const day = await addShootingDay(studio.tenant.tenantId, studio.token, {
      date: `2027-04-0${offset + 1}`,
      label,
      startTime: '09:00',
      endTime: '17:00',
    });
    dayIds[label] = day.id;
  }
  return { studio, dayIds };
}

/** Runs the import command on `file` into the studio's gallery; its exit code, printed lines and report. */
async function importInto(studio: TestTenant, file: string) {
  const output: string[] = [];
  const report = join(mkdtempSync(join(tmpdir(), 'example-import-')), 'report.json');
  const code = await runImport(
    [file, '--gallery', studio.token, '--report', report],
    { out: (line) => output.push(line), err: (line) => output.push(line), interactive: false },
    new GroupShootClient({ baseUrl: api.url, tenantSlug: studio.slug, apiKey: studio.apiKey }),
  );
  return { code, output, report: JSON.parse(readFileSync(report, 'utf8')) };
}

/** The gallery's persons as the import left them, in employee ID order. */
async function storedPersons(studio: TestTenant) {
  const client = new GroupShootClient({ baseUrl: api.url, tenantSlug: studio.slug, apiKey: studio.apiKey });
  const persons = [];
  for await (const person of client.allPersons(studio.token))
    persons.push({
      employeeId: person.employeeId,
      name: person.name,
      email: person.email,
      shootingDayId: person.shootingDayId,
    });
  return persons.sort((a, b) => String(a.employeeId).localeCompare(String(b.employeeId)));
}

describe('examples/hr-export.csv, the sample the integrator guide imports', () => {
  it('imports five of its six rows with their names byte for byte, days by label, and skips the bad email', async () => {
    // Prepare
    const { studio, dayIds } = await studioWithDemoDays();

    // Act
    const { code, output, report } = await importInto(studio, SAMPLE);

    // Assess
    expect(code).toBe(0);
    expect(output).toContain('  name       ← "First name" + "Last name"');
    expect(report.summary).toEqual(
      expect.objectContaining({ rows: 6, imported: 5, skipped: 1, warnings: 0, byReason: { email_invalid: 1 } }),
    );
    expect(await storedPersons(studio)).toEqual([
      {
        employeeId: 'E-100',
        name: 'Jürgen Müller',
        email: 'juergen.mueller@example.com',
        shootingDayId: dayIds.Headquarters,
      },
      {
        employeeId: 'E-101',
        name: 'Änne Größe',
        email: 'aenne.groesse@example.com',
        shootingDayId: dayIds.Headquarters,
      },
      {
        employeeId: 'E-102',
        name: 'Anaïs Lefèvre',
        email: 'anais.lefevre@example.com',
        shootingDayId: dayIds['Open day'],
      },
      { employeeId: 'E-103', name: 'Zoë Weiß', email: 'zoe.weiss@example.com', shootingDayId: dayIds['Open day'] },
      { employeeId: 'E-104', name: 'Katherine Johnson', email: 'katherine.johnson@example.com', shootingDayId: null },
    ]);
  });

  it('imports the same persons from the workbook examples/write-hr-export-xlsx.ts writes of it', async () => {
    // Prepare
    const fromCsv = await studioWithDemoDays();
    const fromWorkbook = await studioWithDemoDays();
    const workbook = join(mkdtempSync(join(tmpdir(), 'example-xlsx-')), 'hr-export.xlsx');
    await writeWorkbookOfCsv(SAMPLE, workbook);

    // Act
    await importInto(fromCsv.studio, SAMPLE);
    const { code, output } = await importInto(fromWorkbook.studio, workbook);

    // Assess: the same persons, each day the same label's day of its own gallery.
    const byLabel = (dayIds: Record<string, string>) =>
      Object.fromEntries(Object.entries(dayIds).map(([label, id]) => [id, label]));
    const labelled = (persons: Awaited<ReturnType<typeof storedPersons>>, dayIds: Record<string, string>) =>
      persons.map((person) => ({
        ...person,
        shootingDayId: person.shootingDayId ? byLabel(dayIds)[person.shootingDayId] : null,
      }));
    expect(code).toBe(0);
    expect(output[0]).toMatch(/^Read .*hr-export\.xlsx as Excel workbook, sheet "HR export": 6 rows\.$/);
    expect(labelled(await storedPersons(fromWorkbook.studio), fromWorkbook.dayIds)).toEqual(
      labelled(await storedPersons(fromCsv.studio), fromCsv.dayIds),
    );
    expect(await storedPersons(fromWorkbook.studio)).toHaveLength(5);
  });
});
