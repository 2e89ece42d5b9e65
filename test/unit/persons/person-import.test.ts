import { DomainError } from '#lib/platform/domain-error';
import { importRows, validateImportRow } from '#lib/persons/rules/person-import';

const days = new Set(['day_1']);

describe('import row validation', () => {
  it.each([
    [{ name: ' Ann ', email: ' ann@example.com ', employeeId: ' E1 ', shootingDayId: 'day_1' }, { name: 'Ann', email: 'ann@example.com', employeeId: 'E1', shootingDayId: 'day_1' }],
    [{ name: 'Ann', email: '', employeeId: '   ' }, { name: 'Ann', email: null, employeeId: null, shootingDayId: null }],
    [{ name: 'Ann', email: null, employeeId: null, shootingDayId: null }, { name: 'Ann', email: null, employeeId: null, shootingDayId: null }],
    [{ name: 'Ann', shootingDayId: 'day_2' }, { name: 'Ann', email: null, employeeId: null, shootingDayId: null }],
    [{ name: 'Ann', unknownColumn: 'ignored' }, { name: 'Ann', email: null, employeeId: null, shootingDayId: null }],
    [{ name: 'n'.repeat(200), employeeId: 'i'.repeat(100) }, { name: 'n'.repeat(200), email: null, employeeId: 'i'.repeat(100), shootingDayId: null }],
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

describe('import request', () => {
  it.each([{}, { persons: [] }, { persons: {} }, { persons: 'x' }])('needs a non-empty persons array: %j', (body) => {
    expect(() => importRows(body)).toThrow(expect.objectContaining({ reason: 'persons_required' }) as unknown as DomainError);
  });

  it('takes 500 persons and refuses 501', () => {
    expect(importRows({ persons: new Array(500).fill({}) })).toHaveLength(500);
    expect(() => importRows({ persons: new Array(501).fill({}) })).toThrow(
      expect.objectContaining({ reason: 'too_many_persons' }) as unknown as DomainError,
    );
  });
});
