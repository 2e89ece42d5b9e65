import { mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import JSZip from 'jszip';
import { GroupShootClient } from '#lib/client/groupshoot-client';
import { MAX_IMPORT_FILE_BYTES, MAX_WORKBOOK_EXPANDED_BYTES } from '../../scripts/import/file-limits';
import { runImport } from '../../scripts/import/run-import';
import { useLocalApi } from '../support/local-api';
import { type TestTenant, createTestTenant } from '../support/factories';

const api = useLocalApi();

/** Names that break when any step decodes or re-encodes wrongly; Windows-1252 holds all of these. */
const WESTERN_NAMES = ['Jürgen Müller', 'Françoise Süß', 'Åsa Öberg', 'José Núñez', 'Zoë Ødegård'];
/** Beyond Windows-1252, for the Unicode encodings. */
const UNICODE_NAMES = [...WESTERN_NAMES, 'Łukasz Żółć', 'Ὀδυσσεύς', '李小龍'];

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

describe('npm run import: the files HR systems export', () => {
  let studio: TestTenant;
  let directory: string;
  let output: string[];
  let methods: string[];
  const io = { out: (line: string) => output.push(line), err: (line: string) => output.push(line), interactive: false };
  /** The client the command uses, recording the method of every request it sends. */
  const client = () =>
    new GroupShootClient({
      baseUrl: api.url,
      tenantSlug: studio.slug,
      apiKey: studio.apiKey,
      fetch: (input, init) => {
        methods.push(init?.method ?? 'GET');
        return fetch(input, init);
      },
    });

  /** Writes the file and runs the command on it; answers the exit code and the report. */
  async function importFile(name: string, bytes: Uint8Array, ...options: string[]) {
    const file = join(directory, name);
    writeFileSync(file, bytes);
    const code = await runImport([file, '--gallery', studio.token, ...options], io, client());
    let report: any;
    try {
      report = JSON.parse(readFileSync(`${file}.report.json`, 'utf8'));
    } catch {
      report = undefined;
    }
    return { code, report, printed: output.join('\n') };
  }

  /** The gallery's persons by employee ID, read back through GET persons. */
  async function storedPersons() {
    const persons = new Map<string, { name: string; email: string | null; shootingDayId: string | null }>();
    for await (const person of client().allPersons(studio.token)) persons.set(person.employeeId ?? person.name, person);
    return persons;
  }

  /** Each expected name, as stored, byte for byte in UTF-8. */
  async function expectNamesStored(names: readonly string[], idOf: (index: number) => string) {
    const persons = await storedPersons();
    expect(persons.size).toBe(names.length);
    names.forEach((name, index) => {
      expect(Buffer.from(persons.get(idOf(index))?.name ?? '', 'utf8')).toEqual(Buffer.from(name, 'utf8'));
    });
  }

  beforeEach(async () => {
    studio = await createTestTenant();
    directory = mkdtempSync(join(tmpdir(), 'import-formats-'));
    output = [];
    methods = [];
  });

  it('imports a German Excel CSV: semicolons, UTF-8 with BOM, headers recognised, days by date', async () => {
    // Prepare: the export of the issue, Personalnummer;Vorname Nachname;E-Mail;Termin
    const lines = UNICODE_NAMES.map(
      (name, index) => `P${index};${name};p${index}@example.de;${index % 2 === 0 ? '2027-03-01' : '02.03.2027'}`,
    );
    const bytes = Buffer.concat([
      BOM,
      Buffer.from(`Personalnummer;Vorname Nachname;E-Mail;Termin\r\n${lines.join('\r\n')}\r\n`, 'utf8'),
    ]);
    // Act
    const { code, report, printed } = await importFile('hr.csv', bytes);
    // Assess
    expect(code).toBe(0);
    expect(report.summary).toEqual(
      expect.objectContaining({ rows: UNICODE_NAMES.length, imported: UNICODE_NAMES.length, skipped: 0, warnings: 0 }),
    );
    expect(printed).toContain('as text, UTF-8 with BOM, separated by semicolon');
    expect(printed).toContain('name       ← "Vorname Nachname"');
    expect(printed).toContain('employeeId ← "Personalnummer"');
    expect(printed).toContain('day        ← "Termin", matched by auto');
    await expectNamesStored(UNICODE_NAMES, (index) => `P${index}`);
    const persons = await storedPersons();
    expect(persons.get('P0')?.shootingDayId).toBe(studio.days.earlier.id);
    expect(persons.get('P1')?.shootingDayId).toBe(studio.days.later.id);
  });

  it('imports tab-separated UTF-8 with English headers, first and last name joined', async () => {
    const lines = WESTERN_NAMES.map((name, index) => {
      const [first, last] = name.split(' ');
      return `E-${index}\t${first}\t${last}\tp${index}@example.com`;
    });
    const { code, printed } = await importFile(
      'staff.tsv',
      Buffer.from(`Employee ID\tFirst Name\tLast Name\tEmail\n${lines.join('\n')}\n`, 'utf8'),
    );
    expect(code).toBe(0);
    expect(printed).toContain('separated by tab');
    expect(printed).toContain('name       ← "First Name" + "Last Name"');
    await expectNamesStored(WESTERN_NAMES, (index) => `E-${index}`);
  });

  it('imports Excel\'s "Unicode text": UTF-16LE with a BOM, tabs, Vorname and Nachname', async () => {
    const lines = UNICODE_NAMES.map((name, index) => {
      const [first, last] = name.includes(' ') ? name.split(' ') : ['', name];
      return `${index}\t${last}\t${first}`;
    });
    const bytes = iconv.encode(`Personalnummer\tNachname\tVorname\r\n${lines.join('\r\n')}\r\n`, 'utf-16le', {
      addBOM: true,
    });
    const { code, printed } = await importFile('Mitarbeiter.txt', bytes);
    expect(code).toBe(0);
    expect(printed).toContain('as text, UTF-16LE, separated by tab');
    // A blank first name is dropped, not joined as a leading space.
    await expectNamesStored(UNICODE_NAMES, (index) => String(index));
  });

  it('imports Windows-1252 with umlauts', async () => {
    const lines = WESTERN_NAMES.map((name, index) => `"${name}";${index};m${index}@example.de`);
    const bytes = iconv.encode(`Name;Pers.-Nr.;E-Mail-Adresse\r\n${lines.join('\r\n')}\r\n`, 'windows-1252');
    expect(bytes.includes(0xfc)).toBe(true); // ü as one byte: the file really is Windows-1252
    const { code, printed } = await importFile('export.csv', bytes);
    expect(code).toBe(0);
    expect(printed).toContain('as text, windows-1252, separated by semicolon');
    await expectNamesStored(WESTERN_NAMES, (index) => String(index));
  });

  it('imports an .xlsx workbook: numbers, dates, rich text and formulas as text', async () => {
    // Prepare: the second sheet holds the persons and is picked by --sheet
    const book = new ExcelJS.Workbook();
    book.addWorksheet('Deckblatt').addRow(['Fotoshooting 2027']);
    const sheet = book.addWorksheet('Personal');
    sheet.addRow(['Personalnummer', 'Vorname', 'Nachname', 'E-Mail', 'Termin']);
    UNICODE_NAMES.forEach((name, index) => {
      const [first, last] = name.includes(' ') ? name.split(' ') : ['', name];
      sheet.addRow([
        1000 + index,
        index === 0
          ? { richText: [{ text: first!.slice(0, 2) }, { text: first!.slice(2), font: { italic: true } }] }
          : first,
        index === 1 ? { formula: `"${last}"`, result: last } : last,
        { text: `p${index}@example.de`, hyperlink: `mailto:p${index}@example.de` },
        new Date(Date.UTC(2027, 2, 1 + (index % 2))),
      ]);
    });
    const bytes = new Uint8Array(await book.xlsx.writeBuffer());
    // Act
    const { code, report, printed } = await importFile('hr.xlsx', bytes, '--sheet', 'Personal');
    // Assess
    expect(code).toBe(0);
    expect(printed).toContain('as Excel workbook, sheet "Personal"');
    expect(report.skipped).toEqual([]);
    await expectNamesStored(UNICODE_NAMES, (index) => String(1000 + index));
    const persons = await storedPersons();
    expect(persons.get('1000')).toEqual(
      expect.objectContaining({ email: 'p0@example.de', shootingDayId: studio.days.earlier.id }),
    );
    expect(persons.get('1001')?.shootingDayId).toBe(studio.days.later.id);
  });

  it('composes the name from --map name=Vorname+Nachname, dropping blanks', async () => {
    const csv =
      'Nr,Vorname,Nachname,Mail\n1,Ada,Lovelace,ada@example.com\n2,,Hopper,grace@example.com\n3,Alan,,alan@example.com\n4,,,nobody@example.com\n';
    const { code, report } = await importFile(
      'names.csv',
      Buffer.from(csv),
      '--map',
      'name=Vorname+Nachname,employeeId=Nr',
    );
    expect(code).toBe(0);
    expect(report.summary).toEqual(
      expect.objectContaining({ imported: 3, skipped: 1, byReason: { name_required: 1 } }),
    );
    expect([...(await storedPersons()).values()].map((person) => person.name).sort()).toEqual([
      'Ada Lovelace',
      'Alan',
      'Hopper',
    ]);
  });

  it('refuses a misspelt mapped column with exit 2, listing the columns, and sends nothing', async () => {
    const csv = 'Personalnummer;Vorname Nachname;E-Mail;Termin\n1;Ada Lovelace;ada@example.com;\n';
    const { code, printed } = await importFile('hr.csv', Buffer.from(csv), '--map', 'name=Nom');
    expect(code).toBe(2);
    expect(printed).toContain(
      '--map name=Nom: the file has no column "Nom". Its columns are: "Personalnummer", "Vorname Nachname", "E-Mail", "Termin"',
    );
    expect(methods).toEqual([]);
  });

  describe('a day the gallery does not have', () => {
    const csv = 'Name,Employee ID,Date\nAda,1,2027-03-01\nGrace,2,2030-01-01\nAlan,3,Some day\n';

    it('imports the person without a day, with a warning in the report', async () => {
      const { code, report, printed } = await importFile('days.csv', Buffer.from(csv));
      expect(code).toBe(0);
      expect(report.summary).toEqual(
        expect.objectContaining({ imported: 3, skipped: 0, warnings: 2, byWarning: { shooting_day_not_found: 2 } }),
      );
      expect(report.warnings).toEqual([
        { line: 3, warning: 'shooting_day_not_found', value: '2030-01-01' },
        { line: 4, warning: 'shooting_day_not_found', value: 'Some day' },
      ]);
      expect(printed).toContain(
        'Warning: 2 rows were imported without a day (shooting_day_not_found: "2030-01-01", "Some day")',
      );
      const persons = await storedPersons();
      expect(persons.get('1')?.shootingDayId).toBe(studio.days.earlier.id);
      expect(persons.get('2')?.shootingDayId).toBeNull();
    });

    it('skips the row with --strict-days', async () => {
      const { code, report } = await importFile('days.csv', Buffer.from(csv), '--strict-days');
      expect(code).toBe(0);
      expect(report.summary).toEqual(
        expect.objectContaining({ imported: 1, skipped: 2, warnings: 0, byReason: { shooting_day_not_found: 2 } }),
      );
      expect([...(await storedPersons()).keys()]).toEqual(['1']);
    });
  });

  it('shows the first rows as they would be sent in a dry run, and sends nothing', async () => {
    const csv = `Vorname;Nachname;Personalnummer;Termin\n${WESTERN_NAMES.map((name, index) => `${name.replace(' ', ';')};${index};01.03.2027`).join('\n')}\nLeer;;;\n`;
    const { code, report, printed } = await importFile('hr.csv', Buffer.from(csv), '--dry-run');
    expect(code).toBe(0);
    expect(report.summary).toEqual(expect.objectContaining({ dryRun: true, rows: 6, wouldImport: 6, imported: 0 }));
    expect(printed).toContain('The first 5 of 6 persons as they would be sent (nothing is sent in a dry run):');
    expect(printed).toContain(
      `  line 2: {"name":"Jürgen Müller","email":null,"employeeId":"0","shootingDayId":"${studio.days.earlier.id}"}`,
    );
    expect(printed).not.toContain('line 7:');
    expect(methods.every((method) => method === 'GET')).toBe(true);
    expect((await storedPersons()).size).toBe(0);
  });

  it('sends the same chunk with the same Idempotency-Key when run again after a change of options', async () => {
    // Persons without an employee ID are not recognised as imported; the chunk's key keeps a re-run from doubling them.
    const csv = 'Name;E-Mail\nAda Lovelace;ada@example.com\nGrace Hopper;grace@example.com\n';
    expect((await importFile('no-ids.csv', Buffer.from(csv))).code).toBe(0);
    const again = await importFile('no-ids.csv', Buffer.from(csv), '--strict-days', '--day-by', 'label');
    expect(again.code).toBe(0);
    expect((await storedPersons()).size).toBe(2);
  });

  describe('files over the limits', () => {
    it('refuses a file over 20 MiB by its size, before reading it, with exit 2', async () => {
      // Prepare: a sparse file one byte over the limit
      const file = join(directory, 'huge.csv');
      writeFileSync(file, 'Name\nAda Lovelace\n');
      truncateSync(file, MAX_IMPORT_FILE_BYTES + 1);
      // Act
      const code = await runImport([file, '--gallery', studio.token], io, client());
      // Assess
      expect(code).toBe(2);
      expect(output[0]).toBe(`${file} is larger than 20 MiB, the most an import reads: split it`);
      expect(methods).toEqual([]);
    });

    it('refuses an .xlsx that expands to more than 50 MiB (a zip bomb) before exceljs reads it, with exit 2', async () => {
      // Prepare: a small zip whose worksheet inflates to one byte over the limit
      const archive = new JSZip();
      archive.file('[Content_Types].xml', '<?xml version="1.0"?><Types/>');
      archive.file('xl/worksheets/sheet1.xml', Buffer.alloc(MAX_WORKBOOK_EXPANDED_BYTES + 1, 0x20));
      const bytes = await archive.generateAsync({
        type: 'nodebuffer',
        compression: 'DEFLATE',
        compressionOptions: { level: 9 },
      });
      expect(bytes.length).toBeLessThan(1024 * 1024);
      // Act
      const { code, printed } = await importFile('bomb.xlsx', bytes);
      // Assess
      expect(code).toBe(2);
      expect(printed).toContain(
        'The workbook expands to more than 50 MiB, the most an import reads: save the sheet alone, or as CSV',
      );
      expect(methods).toEqual([]);
    });
  });
});
