import { parseImportRequest } from '#lib/persons/person-schemas';
import { validateImportRow } from '#lib/persons/rules/person-import';

const days = new Set(['day_1']);

describe('import row validation', () => {
  it.each([
    [
      { name: ' Ann ', email: ' ann@example.com ', employeeId: ' E1 ', shootingDayId: 'day_1' },
      { name: 'Ann', email: 'ann@example.com', employeeId: 'E1', shootingDayId: 'day_1' },
    ],
    [
      { name: 'Ann', email: '', employeeId: '   ' },
      { name: 'Ann', email: null, employeeId: null, shootingDayId: null },
    ],
    [
      { name: 'Ann', email: null, employeeId: null, shootingDayId: null },
      { name: 'Ann', email: null, employeeId: null, shootingDayId: null },
    ],
    [
      { name: 'Ann', shootingDayId: 'day_2' },
      { name: 'Ann', email: null, employeeId: null, shootingDayId: null },
    ],
    [
      { name: 'Ann', unknownColumn: 'ignored' },
      { name: 'Ann', email: null, employeeId: null, shootingDayId: null },
    ],
    [
      { name: 'n'.repeat(200), employeeId: 'i'.repeat(100) },
      { name: 'n'.repeat(200), email: null, employeeId: 'i'.repeat(100), shootingDayId: null },
    ],
  ])('accepts %j', (input, row) => {
    expect(validateImportRow(input, days)).toEqual({ ok: true, row });
  });

  it.each([
    [null, 'row_not_object'],
    [['Ann'], 'row_not_object'],
    [{}, 'name_required'],
    [{ name: null }, 'name_required'],
    [{ name: '\t \n' }, 'name_required'],
    [{ name: true }, 'name_not_string'],
    [{ name: `${' '.repeat(5)}${'n'.repeat(201)}` }, 'name_too_long'],
    [{ name: 'A', email: 5 }, 'email_not_string'],
    [{ name: 'A', email: 'a@' }, 'email_invalid'],
    [{ name: 'A', email: 'two words@example.com' }, 'email_invalid'],
    [{ name: 'A', email: `${'e'.repeat(190)}@example.com` }, 'email_too_long'],
    [{ name: 'A', employeeId: { id: 1 } }, 'employee_id_not_string'],
    [{ name: 'A', employeeId: 'i'.repeat(101) }, 'employee_id_too_long'],
    [{ name: 42, email: 'bad' }, 'name_not_string'],
  ])('skips %j as %s', (input, reason) => {
    expect(validateImportRow(input, days)).toEqual({ ok: false, reason });
  });
});

describe('import request (parseImportRequest)', () => {
  it.each([{}, { persons: [] }, { persons: {} }, { persons: 'x' }])('needs a non-empty persons array: %j', (body) => {
    expect(() => parseImportRequest(body)).toThrow(expect.objectContaining({ reason: 'persons_required' }));
  });

  it('parses each row into its verdict: a row that fails is skipped, never the request', () => {
    const { persons } = parseImportRequest({
      persons: [{ name: ' Ann ', shootingDayId: 'day_1' }, ['Ann'], { name: 7 }],
    });

    expect(persons).toEqual([
      { ok: true, row: { name: 'Ann', email: null, employeeId: null, shootingDayId: 'day_1' } },
      { ok: false, reason: 'row_not_object' },
      { ok: false, reason: 'name_not_string' },
    ]);
  });

  it('takes 500 persons and refuses 501', () => {
    expect(parseImportRequest({ persons: new Array(500).fill({}) }).persons).toHaveLength(500);
    expect(() => parseImportRequest({ persons: new Array(501).fill({}) })).toThrow(
      expect.objectContaining({ reason: 'too_many_persons' }),
    );
  });
});
