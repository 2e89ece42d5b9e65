import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { readTable } from '../../../scripts/import/read-table';
import { cellText } from '../../../scripts/import/read-workbook';
import { UsageError } from '../../../scripts/cli-kit/cli-errors';

const utf8 = (text: string) => Buffer.from(text, 'utf8');

describe('readTable: delimited text', () => {
  it('reads a semicolon export with a BOM, CRLF and quoted fields, as lines of the file', async () => {
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      utf8(
        'Personalnummer;Vorname Nachname;E-Mail\r\n0042;"Müller; Jürgen";j@x.de\r\n\r\n7;Zoë "Zo" Ødegård;z@x.de\r\n',
      ),
    ]);
    const table = await readTable('hr.csv', bytes);
    expect(table.columns).toEqual(['Personalnummer', 'Vorname Nachname', 'E-Mail']);
    expect(table.rows).toEqual([
      { line: 2, values: { Personalnummer: '0042', 'Vorname Nachname': 'Müller; Jürgen', 'E-Mail': 'j@x.de' } },
      { line: 4, values: { Personalnummer: '7', 'Vorname Nachname': 'Zoë "Zo" Ødegård', 'E-Mail': 'z@x.de' } },
    ]);
    expect(table.description).toBe('text, UTF-8 with BOM, separated by semicolon');
  });

  it('reads Excel\'s "Unicode text": UTF-16LE with a BOM, separated by tabs', async () => {
    const table = await readTable(
      'export.txt',
      iconv.encode('Name\tE-Mail\nFrançoise Süß\tf@x.de\n', 'utf-16le', { addBOM: true }),
    );
    expect(table.rows).toEqual([{ line: 2, values: { Name: 'Françoise Süß', 'E-Mail': 'f@x.de' } }]);
    expect(table.description).toBe('text, UTF-16LE, separated by tab');
  });

  it('follows a sep= line, leaves out rows without values, names empty and repeated columns', async () => {
    const table = await readTable('hr.csv', iconv.encode('sep=|\nName||Name\nÄnne|x|y\n||\n', 'windows-1252'));
    expect(table.columns).toEqual(['Name', 'Column 2', 'Name (2)']);
    expect(table.rows).toEqual([{ line: 3, values: { Name: 'Änne', 'Column 2': 'x', 'Name (2)': 'y' } }]);
    expect(table.description).toBe('text, windows-1252, separated by pipe');
  });

  it('takes --delimiter and --encoding', async () => {
    const table = await readTable('hr.csv', iconv.encode('Name,Ort;E-Mail\nA,B;a@x.de\n', 'latin1'), {
      delimiter: 'semicolon',
      encoding: 'latin1',
    });
    expect(table.columns).toEqual(['Name,Ort', 'E-Mail']);
  });

  it('refuses --sheet for text and an .xls workbook', async () => {
    await expect(readTable('hr.csv', utf8('Name\nA\n'), { sheet: 'Personal' })).rejects.toThrow(UsageError);
    await expect(readTable('hr.xls', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1]))).rejects.toThrow(
      /save it as .xlsx or CSV/,
    );
  });
});

describe('readTable: JSON', () => {
  it('keeps the values as they are, and marks entries that are not objects', async () => {
    const table = await readTable(
      'persons.json',
      utf8(JSON.stringify({ persons: [{ name: 'Ada', employeeId: 7 }, ['x']] })),
    );
    expect(table.columns).toEqual(['name', 'employeeId']);
    expect(table.rows).toEqual([
      { line: 1, values: { name: 'Ada', employeeId: 7 } },
      { line: 2, values: null },
    ]);
  });

  it('refuses what is not JSON', async () => {
    await expect(readTable('persons.json', utf8('{'))).rejects.toThrow(UsageError);
  });
});

describe('readTable: .xlsx', () => {
  async function workbook(build: (workbook: ExcelJS.Workbook) => void): Promise<Uint8Array> {
    const book = new ExcelJS.Workbook();
    build(book);
    return new Uint8Array(await book.xlsx.writeBuffer());
  }

  it('reads the first sheet, every kind of cell as text', async () => {
    const bytes = await workbook((book) => {
      const sheet = book.addWorksheet('Mitarbeiter');
      book.addWorksheet('Notizen').addRow(['Name']);
      sheet.addRow([]);
      sheet.addRow(['Personalnummer', 'Vorname', 'Nachname', 'E-Mail', 'Termin', 'Faktor', 'Aktiv', 'Fehler']);
      sheet.addRow([
        42,
        { richText: [{ text: 'Jür' }, { text: 'gen', font: { bold: true } }] },
        { formula: 'UPPER("Müller")', result: 'MÜLLER' },
        { text: 'j@example.com', hyperlink: 'mailto:j@example.com' },
        new Date(Date.UTC(2027, 2, 1)),
        { formula: '0.1+0.2', result: 0.30000000000000004 },
        true,
        { error: '#N/A' },
      ]);
      sheet.getCell('A3').numFmt = '00000';
      sheet.addRow([12345678901234, 'Zoë', 'Ødegård', '', { formula: 'DATE(2027,3,2)', result: 46448 }]);
      sheet.getCell('E4').numFmt = 'dd.mm.yyyy';
    });
    const table = await readTable('hr.xlsx', bytes);
    expect(table.description).toBe('Excel workbook, sheet "Mitarbeiter" (of "Mitarbeiter", "Notizen")');
    expect(table.rows).toEqual([
      {
        line: 3,
        values: {
          Personalnummer: '00042',
          Vorname: 'Jürgen',
          Nachname: 'MÜLLER',
          'E-Mail': 'j@example.com',
          Termin: '2027-03-01',
          Faktor: '0.3',
          Aktiv: 'TRUE',
          Fehler: '',
        },
      },
      {
        line: 4,
        values: {
          Personalnummer: '12345678901234',
          Vorname: 'Zoë',
          Nachname: 'Ødegård',
          'E-Mail': '',
          Termin: '2027-03-02',
          Faktor: '',
          Aktiv: '',
          Fehler: '',
        },
      },
    ]);
  });

  it('reads the sheet named by --sheet, whatever the file is called, and lists the sheets for a wrong name', async () => {
    const bytes = await workbook((book) => {
      book.addWorksheet('Deckblatt').addRow(['Titel']);
      const sheet = book.addWorksheet('Personal');
      sheet.addRow(['Name']);
      sheet.addRow(['Ada']);
    });
    expect((await readTable('export.bin', bytes, { sheet: 'personal' })).rows).toEqual([
      { line: 2, values: { Name: 'Ada' } },
    ]);
    await expect(readTable('hr.xlsx', bytes, { sheet: 'Staff' })).rejects.toThrow(
      '--sheet: the workbook has no sheet "Staff". Its sheets: "Deckblatt", "Personal"',
    );
  });
});

describe('cellText', () => {
  it.each<[string, ExcelJS.CellValue, string | undefined, string]>([
    ['a whole number', 1234, undefined, '1234'],
    ['a time of day', new Date(Date.UTC(1899, 11, 30, 9, 30)), undefined, '09:30'],
    ['a date and time', new Date(Date.UTC(2027, 2, 1, 9, 30)), undefined, '2027-03-01 09:30'],
    ['a date serial under a date format', 46447, 'yyyy-mm-dd', '2027-03-01'],
    ['a number under a quoted text format', 5, '0" days"', '5'],
    ['a formula without a result', { formula: 'A1' }, undefined, ''],
    ['nothing', null, undefined, ''],
  ])('reads %s', (_case, value, numFmt, text) => {
    expect(cellText({ value, numFmt })).toBe(text);
  });
});
