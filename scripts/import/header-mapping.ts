import { UsageError } from '../cli-kit/cli-errors';

/** The person fields a file's columns can fill. */
export const IMPORT_FIELDS = ['name', 'email', 'employeeId', 'day'] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/**
 * The columns each field is read from, as named in the file's header. Several columns (only
 * for name) are joined with a space, blanks dropped; none means the field is not imported.
 */
export type ColumnMapping = Record<ImportField, string[]>;

/** What `--map` asks for: per field, the columns as typed; [] for FIELD=- (leave it out). */
export type RequestedMapping = Partial<Record<ImportField, string[]>>;

/** Lower case, no accents, ß as ss, letters and digits only: "E-Mail" and "e_mail" are "email". */
export function normaliseHeader(header: string): string {
  return header
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/**
 * The headers recognised without --map, normalised, in order of preference: when several
 * columns qualify, the one whose name comes first here is used. English and German.
 */
export const RECOGNISED_HEADERS = {
  name: [
    'fullname',
    'name',
    'displayname',
    'employeename',
    'participant',
    'participantname',
    'personname',
    'vollstandigername',
    'vollername',
    'vornamenachname',
    'vornameundnachname',
    'mitarbeitername',
    'mitarbeiter',
    'teilnehmer',
    'teilnehmername',
  ],
  firstName: ['firstname', 'givenname', 'forename', 'first', 'vorname', 'rufname'],
  lastName: ['lastname', 'surname', 'familyname', 'last', 'nachname', 'familienname', 'zuname'],
  email: [
    'email',
    'emailaddress',
    'workemail',
    'businessemail',
    'mail',
    'emailadresse',
    'emailgeschaftlich',
    'geschaftlicheemail',
    'dienstlicheemail',
    'mailadresse',
  ],
  employeeId: [
    'employeeid',
    'employeenumber',
    'employeeno',
    'staffid',
    'staffnumber',
    'personnelnumber',
    'personnelno',
    'personalnummer',
    'personalnr',
    'persnr',
    'pernr',
    'mitarbeiternummer',
    'mitarbeiternr',
    'mitarbeiterid',
    'id',
  ],
  day: [
    'shootingdayid',
    'shootingday',
    'shootingdate',
    'shootday',
    'photoday',
    'day',
    'date',
    'termin',
    'fototermin',
    'shootingtermin',
    'aufnahmetag',
    'tag',
    'datum',
  ],
} as const;

/** The first column, in the order of the recognised names, that has one of them. */
function recognise(
  columns: readonly string[],
  names: readonly string[],
  taken: ReadonlySet<string>,
): string | undefined {
  for (const name of names) {
    const column = columns.find((candidate) => !taken.has(candidate) && normaliseHeader(candidate) === name);
    if (column) return column;
  }
  return undefined;
}

/**
 * Parses `--map name=Vorname+Nachname,email=E-Mail,day=-`: field names case-insensitive
 * (shootingDayId means day), a comma starts a new pair only before another FIELD=, so column
 * names may hold commas.
 */
export function parseMapOption(option: string): RequestedMapping {
  const requested: RequestedMapping = {};
  for (const pair of option.split(/,(?=\s*[A-Za-z]+\s*=)/)) {
    const match = /^\s*([A-Za-z]+)\s*=(.*)$/.exec(pair);
    const field = match && fieldNamed(match[1]!);
    const columns = match?.[2]!.trim();
    if (!field || !columns)
      throw new UsageError(`--map: "${pair.trim()}" is not FIELD=COLUMN with FIELD name, email, employeeId or day`);
    if (requested[field]) throw new UsageError(`--map: ${field} is mapped twice`);
    requested[field] = columns === '-' ? [] : [columns];
  }
  return requested;
}

function fieldNamed(name: string): ImportField | undefined {
  if (name.toLowerCase() === 'shootingdayid') return 'day';
  return IMPORT_FIELDS.find((field) => field.toLowerCase() === name.toLowerCase());
}

const listed = (columns: readonly string[]) => columns.map((column) => `"${column}"`).join(', ');

/**
 * The header column a --map value names: the same name ignoring case and surrounding spaces,
 * else the only column with the same letters and digits ("Email" for "E-Mail"); a name that
 * is no column is a usage error listing the header's columns.
 */
function columnNamed(columns: readonly string[], wanted: string, field: ImportField, mapped = wanted): string {
  const exact = columns.find((column) => column.trim().toLowerCase() === wanted.trim().toLowerCase());
  if (exact) return exact;
  const alike = columns.filter(
    (column) => normaliseHeader(column) === normaliseHeader(wanted) && normaliseHeader(wanted) !== '',
  );
  if (alike.length === 1) return alike[0]!;
  throw new UsageError(
    `--map ${field}=${mapped.trim()}: the file has no column "${wanted.trim()}". Its columns are: ${listed(columns)}`,
  );
}

/** The columns of one --map value: one column, or "A+B" when no column is called that. */
function columnsNamed(columns: readonly string[], value: string, field: ImportField): string[] {
  if (!value.includes('+') || columns.some((column) => column.trim().toLowerCase() === value.trim().toLowerCase()))
    return [columnNamed(columns, value, field)];
  if (field !== 'name') throw new UsageError(`--map ${field}=${value}: only name can be composed of several columns`);
  return value.split('+').map((part) => columnNamed(columns, part, field, value));
}

/**
 * The mapping for a file: what --map says, the rest recognised from the header. The name is a
 * full-name column, else first name + last name; next to a first-name column and without a
 * last-name one, "Name" is the last name (as in German exports: Vorname; Name). Without any
 * column for the name there is nothing to import: a usage error listing the columns.
 */
export function resolveMapping(columns: readonly string[], requested: RequestedMapping = {}): ColumnMapping {
  const mapping = {} as ColumnMapping;
  for (const field of IMPORT_FIELDS)
    if (requested[field]) mapping[field] = requested[field].flatMap((value) => columnsNamed(columns, value, field));
  const taken = new Set(Object.values(mapping).flat());
  for (const field of ['employeeId', 'email', 'day'] as const) {
    if (mapping[field]) continue;
    const column = recognise(columns, RECOGNISED_HEADERS[field], taken);
    mapping[field] = column ? [column] : [];
    if (column) taken.add(column);
  }
  mapping.name ??= recogniseName(columns, taken);
  if (mapping.name.length === 0) {
    throw new UsageError(
      `No column for the name: give --map name=COLUMN (or name=FIRST+LAST). ${requested.name ? '' : 'None of the columns is a recognised name column. '}The file's columns are: ${listed(columns)}`,
    );
  }
  return mapping;
}

function recogniseName(columns: readonly string[], taken: ReadonlySet<string>): string[] {
  const firstName = recognise(columns, RECOGNISED_HEADERS.firstName, taken);
  let lastName = recognise(columns, RECOGNISED_HEADERS.lastName, taken);
  const fullName = recognise(columns, RECOGNISED_HEADERS.name, taken);
  if (fullName && firstName && !lastName && normaliseHeader(fullName) === 'name') lastName = fullName;
  else if (fullName) return [fullName];
  return [firstName, lastName].filter((column): column is string => column !== undefined);
}

/** The mapping as printed before anything is sent, one line per field, then the unused columns. */
export function describeMapping(mapping: ColumnMapping, columns: readonly string[], dayMatch: string): string[] {
  const lines = IMPORT_FIELDS.map((field) => {
    const source =
      mapping[field].length === 0 ? '(not imported)' : mapping[field].map((column) => `"${column}"`).join(' + ');
    return `  ${field.padEnd(10)} ← ${source}${field === 'day' && mapping.day.length > 0 ? `, matched by ${dayMatch}` : ''}`;
  });
  const used = new Set(Object.values(mapping).flat());
  const unused = columns.filter((column) => !used.has(column));
  return unused.length > 0 ? [...lines, `  not used: ${listed(unused)}`] : lines;
}
