import {
  describeMapping,
  normaliseHeader,
  parseMapOption,
  resolveMapping,
} from '../../../scripts/import/header-mapping';
import { UsageError } from '../../../scripts/cli-kit/cli-errors';

function usageMessage(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error('no UsageError');
}

describe('normaliseHeader', () => {
  it.each([
    ['E-Mail', 'email'],
    [' Full Name ', 'fullname'],
    ['Personal-Nr.', 'personalnr'],
    ['Vollständiger Name', 'vollstandigername'],
    ['Straße', 'strasse'],
  ])('%j is %j', (header, normalised) => {
    expect(normaliseHeader(header)).toBe(normalised);
  });
});

describe('resolveMapping without --map', () => {
  it.each<[string, string[], Record<string, string[]>]>([
    [
      'a German HR export with one name column',
      ['Personalnummer', 'Vorname Nachname', 'E-Mail', 'Termin'],
      { name: ['Vorname Nachname'], email: ['E-Mail'], employeeId: ['Personalnummer'], day: ['Termin'] },
    ],
    [
      'a German export with first and last names',
      ['Personalnummer', 'Nachname', 'Vorname', 'E-Mail-Adresse', 'Abteilung', 'Fototermin'],
      { name: ['Vorname', 'Nachname'], email: ['E-Mail-Adresse'], employeeId: ['Personalnummer'], day: ['Fototermin'] },
    ],
    [
      'German "Vorname; Name", where Name is the last name',
      ['Pers.-Nr.', 'Vorname', 'Name', 'E-Mail'],
      { name: ['Vorname', 'Name'], email: ['E-Mail'], employeeId: ['Pers.-Nr.'], day: [] },
    ],
    [
      'an English export',
      ['Employee ID', 'First Name', 'Last Name', 'Email Address', 'Shooting Date'],
      {
        name: ['First Name', 'Last Name'],
        email: ['Email Address'],
        employeeId: ['Employee ID'],
        day: ['Shooting Date'],
      },
    ],
    [
      'the API field names (JSON)',
      ['name', 'email', 'employeeId', 'shootingDayId'],
      { name: ['name'], email: ['email'], employeeId: ['employeeId'], day: ['shootingDayId'] },
    ],
    [
      'a full name next to first and last names (the full name wins) and a personnel number next to an ID',
      ['ID', 'Full Name', 'First name', 'Surname', 'Staff number'],
      { name: ['Full Name'], email: [], employeeId: ['Staff number'], day: [] },
    ],
  ])('recognises %s', (_case, columns, mapping) => {
    expect(resolveMapping(columns)).toEqual(mapping);
  });

  it('refuses a file without a name column, listing its columns', () => {
    const message = usageMessage(() => resolveMapping(['Kennung', 'Anschrift']));
    expect(message).toMatch(/No column for the name/);
    expect(message).toContain('"Kennung", "Anschrift"');
  });
});

describe('resolveMapping with --map', () => {
  const columns = ['Personalnummer', 'Vorname', 'Nachname', 'E-Mail', 'Termin', 'Name, Vorname'];

  it('takes the mapped columns, recognises the rest and composes the name', () => {
    const mapping = resolveMapping(columns, parseMapOption('name=vorname + NACHNAME, day=-'));
    expect(mapping).toEqual({
      name: ['Vorname', 'Nachname'],
      email: ['E-Mail'],
      employeeId: ['Personalnummer'],
      day: [],
    });
  });

  it('reads a column whose name holds a comma, and one spelt with other punctuation', () => {
    const mapping = resolveMapping(columns, parseMapOption('name=Name, Vorname,email=Email'));
    expect(mapping.name).toEqual(['Name, Vorname']);
    expect(mapping.email).toEqual(['E-Mail']);
  });

  it.each([
    ['name=Nom', '--map name=Nom: the file has no column "Nom"'],
    ['name=Vorname+Nachnahme', '--map name=Vorname+Nachnahme: the file has no column "Nachnahme"'],
    ['email=Mail', '--map email=Mail: the file has no column "Mail"'],
  ])('refuses %s, listing the columns', (option, start) => {
    const message = usageMessage(() => resolveMapping(columns, parseMapOption(option)));
    expect(message).toContain(start);
    expect(message).toContain(
      'Its columns are: "Personalnummer", "Vorname", "Nachname", "E-Mail", "Termin", "Name, Vorname"',
    );
  });

  it('composes only the name', () => {
    expect(usageMessage(() => resolveMapping(columns, parseMapOption('email=Vorname+Nachname')))).toMatch(/only name/);
  });
});

describe('parseMapOption', () => {
  it('reads field names in any case, shootingDayId as day, and - as not imported', () => {
    expect(parseMapOption('NAME=Full Name,employeeid=Personal-Nr,shootingDayId=Termin,email=-')).toEqual({
      name: ['Full Name'],
      employeeId: ['Personal-Nr'],
      day: ['Termin'],
      email: [],
    });
  });

  it.each(['colour=Farbe', 'name', 'name=', 'name=A,name=B'])('refuses %j', (option) => {
    expect(() => parseMapOption(option)).toThrow(UsageError);
  });
});

describe('describeMapping', () => {
  it('prints each field, how days are matched and the unused columns', () => {
    const columns = ['Personalnummer', 'Vorname', 'Nachname', 'Abteilung'];
    const lines = describeMapping(resolveMapping(columns), columns, 'auto');
    expect(lines).toEqual([
      '  name       ← "Vorname" + "Nachname"',
      '  email      ← (not imported)',
      '  employeeId ← "Personalnummer"',
      '  day        ← (not imported)',
      '  not used: "Abteilung"',
    ]);
  });
});
