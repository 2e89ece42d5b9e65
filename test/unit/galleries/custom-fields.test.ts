import { validateCustomFields } from '#lib/galleries/rules/custom-fields';
import type { FormField } from '#lib/galleries/rules/gallery-model';
import { refusalOf } from '../../support/domain-errors';

const SIZE = 'custom-11111111-1111-4111-8111-111111111111';
const AGE = 'custom-22222222-2222-4222-8222-222222222222';
const TEAM = 'custom-33333333-3333-4333-8333-333333333333';
const MOTTO = 'custom-44444444-4444-4444-8444-444444444444';

function field(key: string, type: FormField['type'], overrides: Partial<FormField> = {}): FormField {
  return { key, label: `Label of ${type}`, type, required: false, enabled: true, position: 1, ...overrides };
}

const text = field(SIZE, 'text');
const number = field(AGE, 'number');
const select = field(TEAM, 'select', {
  options: [
    { value: 'red', label: 'Red team' },
    { value: 'blue', label: 'Blue team' },
  ],
});
const textarea = field(MOTTO, 'textarea');

describe('validateCustomFields', () => {
  it('returns the values of the enabled custom fields', () => {
    // Act
    const values = validateCustomFields({ [SIZE]: ' XL ', [AGE]: 42, [TEAM]: 'blue', [MOTTO]: 'Carpe diem' }, [
      text,
      number,
      select,
      textarea,
    ]);

    // Assess
    expect(values).toEqual({ [SIZE]: 'XL', [AGE]: 42, [TEAM]: 'blue', [MOTTO]: 'Carpe diem' });
  });

  it('drops keys of no enabled custom field without an error', () => {
    const values = validateCustomFields({ [SIZE]: 'M', 'custom-gone': 'x', employeeId: 'E-1', [AGE]: 'not checked' }, [
      text,
      { ...number, enabled: false },
    ]);

    expect(values).toEqual({ [SIZE]: 'M' });
  });

  it('ignores built-in form fields, which the check-in validates itself', () => {
    expect(validateCustomFields({ phone: 42 }, [field('phone', 'text', { required: true })])).toEqual({});
  });

  describe('required fields', () => {
    it.each([
      ['absent', {}],
      ['null', { [SIZE]: null }],
      ['empty', { [SIZE]: '' }],
      ['blank', { [SIZE]: '  \t' }],
    ])('refuse a value that is %s with invalid_custom_field and the key', (_case, input) => {
      const error = refusalOf(() => validateCustomFields(input, [{ ...text, label: 'Shirt size', required: true }]));

      expect(error).toMatchObject({
        reason: 'invalid_custom_field',
        subject: { key: SIZE },
        message: 'Shirt size is required.',
      });
    });

    it('are not required while disabled', () => {
      expect(validateCustomFields({}, [{ ...text, required: true, enabled: false }])).toEqual({});
    });
  });

  it('leaves out optional fields without a value', () => {
    expect(validateCustomFields({ [SIZE]: '  ', [AGE]: null }, [text, number])).toEqual({});
  });

  describe('number fields', () => {
    it.each([
      [42, 42],
      [-3.5, -3.5],
      [0, 0],
      ['42', 42],
      ['-7', -7],
      ['3.25', 3.25],
      [' 12 ', 12],
    ])('take %p as %p', (raw, value) => {
      expect(validateCustomFields({ [AGE]: raw }, [number])).toEqual({ [AGE]: value });
    });

    it.each([
      'forty-two',
      '1e3',
      '0x10',
      '1.',
      '.5',
      '1,5',
      Number.NaN,
      Number.POSITIVE_INFINITY,
      true,
      [42],
      { value: 42 },
    ])('refuse %p', (raw) => {
      expect(refusalOf(() => validateCustomFields({ [AGE]: raw }, [number]))).toMatchObject({
        reason: 'invalid_custom_field',
        subject: { key: AGE },
        message: 'Label of number must be a number.',
      });
    });
  });

  describe('select fields', () => {
    it.each(['red', 'blue'])('take the option value %p', (raw) => {
      expect(validateCustomFields({ [TEAM]: raw }, [select])).toEqual({ [TEAM]: raw });
    });

    it.each(['green', 'Red team', 'RED', ' red', 1, true])('refuse %p, which is no option value', (raw) => {
      expect(refusalOf(() => validateCustomFields({ [TEAM]: raw }, [select]))).toMatchObject({
        reason: 'invalid_custom_field',
        subject: { key: TEAM },
        message: 'Label of select must be one of its options.',
      });
    });

    it('refuse every value of a select field without options', () => {
      const withoutOptions = { ...select, options: undefined };

      expect(refusalOf(() => validateCustomFields({ [TEAM]: 'red' }, [withoutOptions])).subject).toEqual({ key: TEAM });
    });
  });

  describe.each([
    ['text', text, 500],
    ['textarea', textarea, 2000],
  ] as const)('%s fields', (type, textField, limit) => {
    it(`take ${limit} characters, counted after trimming`, () => {
      const value = 'x'.repeat(limit);

      expect(validateCustomFields({ [textField.key]: `  ${value}  ` }, [textField])).toEqual({
        [textField.key]: value,
      });
    });

    it(`refuse ${limit + 1} characters`, () => {
      expect(
        refusalOf(() => validateCustomFields({ [textField.key]: 'x'.repeat(limit + 1) }, [textField])),
      ).toMatchObject({
        reason: 'invalid_custom_field',
        subject: { key: textField.key },
        message: `Label of ${type} must be text of at most ${limit} characters.`,
      });
    });

    it.each([42, true, ['x'], { text: 'x' }])('refuse %p, which is not text', (raw) => {
      expect(refusalOf(() => validateCustomFields({ [textField.key]: raw }, [textField])).reason).toBe(
        'invalid_custom_field',
      );
    });
  });

  it('refuses the first invalid field in the order of the form', () => {
    const error = refusalOf(() => validateCustomFields({ [AGE]: 'old', [TEAM]: 'green' }, [select, number]));

    expect(error.subject).toEqual({ key: TEAM });
  });
});
