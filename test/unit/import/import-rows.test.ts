import type { ShootingDay } from '#lib/client/groupshoot-client';
import { buildReport } from '../../../scripts/import/import-report';
import { type PrepareOptions, fieldValue, prepareRows } from '../../../scripts/import/import-rows';
import type { TableRow } from '../../../scripts/import/table';

const DAY: ShootingDay = { id: 'day-1', date: '2027-03-01', label: 'Montag', startTime: '09:00', endTime: '12:00' };
const OPTIONS: PrepareOptions = {
  mapping: { name: ['Vorname', 'Nachname'], email: [], employeeId: ['Nr'], day: ['Termin'] },
  dayMatch: 'auto',
  days: [DAY],
  existingEmployeeIds: new Set(['old']),
  strictDays: false,
};
const ROWS: TableRow[] = [
  { line: 2, values: { Vorname: ' Jürgen ', Nachname: 'Müller', Nr: '1', Termin: '01.03.2027' } },
  { line: 3, values: { Vorname: 'Ada', Nachname: 'Lovelace', Nr: '2', Termin: 'Dienstag' } },
  { line: 4, values: { Vorname: 'Grace', Nachname: 'Hopper', Nr: 'old', Termin: '' } },
  { line: 5, values: { Vorname: 'Alan', Nachname: 'Turing', Nr: '1', Termin: '' } },
  { line: 6, values: null },
];

describe('fieldValue', () => {
  it('joins several columns with one space, leaving blanks out, and keeps one column as it is', () => {
    expect(fieldValue({ a: ' Jürgen ', b: '', c: 'Müller' }, ['a', 'b', 'c'])).toBe('Jürgen Müller');
    expect(fieldValue({ a: '', b: ' ' }, ['a', 'b'])).toBeUndefined();
    expect(fieldValue({ a: 7 }, ['a'])).toBe(7);
  });
});

describe('prepareRows', () => {
  it('imports a row with an unknown day without the day, with a warning, by default', () => {
    expect(prepareRows(ROWS, OPTIONS)).toEqual([
      { line: 2, person: { name: 'Jürgen Müller', email: null, employeeId: '1', shootingDayId: 'day-1' } },
      {
        line: 3,
        person: { name: 'Ada Lovelace', email: null, employeeId: '2', shootingDayId: null },
        warning: 'shooting_day_not_found',
        dayValue: 'Dienstag',
      },
      { line: 4, reason: 'already_imported' },
      { line: 5, reason: 'duplicate_in_file' },
      { line: 6, reason: 'row_not_object' },
    ]);
  });

  it('skips it with strictDays', () => {
    expect(prepareRows(ROWS, { ...OPTIONS, strictDays: true })[1]).toEqual({
      line: 3,
      reason: 'shooting_day_not_found',
      dayValue: 'Dienstag',
    });
  });
});

describe('buildReport', () => {
  it('counts reasons and warnings, and drops the warning of a row the API skipped', () => {
    const report = buildReport(
      { file: 'hr.csv', gallery: 'g', dryRun: false, imported: 1 },
      prepareRows(ROWS, OPTIONS),
      [{ line: 3, reason: 'not_written' }],
    );
    expect(report.summary).toEqual({
      file: 'hr.csv',
      gallery: 'g',
      dryRun: false,
      imported: 1,
      rows: 5,
      wouldImport: 2,
      skipped: 4,
      byReason: { not_written: 1, already_imported: 1, duplicate_in_file: 1, row_not_object: 1 },
      warnings: 0,
      byWarning: {},
    });
    expect(report.skipped.map(({ line }) => line)).toEqual([3, 4, 5, 6]);
  });
});
