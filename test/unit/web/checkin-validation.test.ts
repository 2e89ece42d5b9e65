import { parseSubmitCheckin } from '#lib/checkin/checkin-schemas';
import { validateCustomFields } from '#lib/galleries/rules/custom-fields';
import type { FormField } from '#lib/galleries/rules/gallery-model';
import { CHECKIN_TEXT_LIMITS } from '#lib/checkin/rules/checkin-limits';
import { runPageScripts } from './page-scripts';

const { validateCheckin, validateEmail } = runPageScripts(
  'checkin-rules.js',
  'checkin-validation.js',
).GROUPSHOOT_VALIDATION;

/** The server's verdict on a name and email: accepted, or the refusal's code and field. */
function serverVerdict(name: string, email: string): string {
  try {
    parseSubmitCheckin({ action: 'submitCheckin', token: 'abcdefghjkmnpqrs', name, email });
    return 'accepted';
  } catch (error) {
    const refusal = error as { reason: string; subject: { field?: string } };
    return `${refusal.reason}:${refusal.subject.field ?? ''}`;
  }
}

const pageVerdict = (name: string, email: string): string[] =>
  validateCheckin({ name, email }).map((problem: { field: string; key: string }) => `${problem.field}:${problem.key}`);

describe('the check-in page validation (web/checkin-validation.js)', () => {
  it('reports every problem of an empty form at once, in the form order, each with its own message', () => {
    // Act
    const problems = validateCheckin({
      name: ' ',
      email: '',
      formFields: [
        { key: 'custom-size', type: 'select', required: true, options: [{ value: 's', label: 'S' }], value: '' },
        { key: 'custom-years', type: 'number', required: false, value: 'ten' },
        { key: 'phone', type: 'text', required: false, value: '1'.repeat(CHECKIN_TEXT_LIMITS.phone + 1) },
      ],
      daysOffered: true,
      termsNeeded: true,
      termsAccepted: false,
      orderNotes: '',
      consentRequired: true,
      consentGiven: false,
      selfieRequired: true,
      hasSelfie: false,
    });
    // Assess
    expect(problems).toEqual([
      { field: 'name', key: 'nameRequired' },
      { field: 'email', key: 'emailRequired' },
      { field: 'custom-size', key: 'optionRequired' },
      { field: 'custom-years', key: 'notNumber' },
      { field: 'phone', key: 'tooLong', values: { max: CHECKIN_TEXT_LIMITS.phone } },
      { field: 'shootingDayId', key: 'pickDay' },
      { field: 'termsAccepted', key: 'termsRequired' },
      { field: 'selfieBase64', key: 'selfieRequired' },
      { field: 'consentGiven', key: 'acceptConsent' },
    ]);
  });

  it.each([
    ['Ada', 'ada@example.com'],
    ['Ada', 'ada@'],
    ['Ada', 'ada@example'],
    ['Ada', ' ada.lovelace+shoot@mail.example.co.uk '],
    ['Ada', 'ada lovelace@example.com'],
    ['Ada', 'ä@example.com'],
    ['', 'ada@example.com'],
    ['x'.repeat(CHECKIN_TEXT_LIMITS.name), 'ada@example.com'],
    ['x'.repeat(CHECKIN_TEXT_LIMITS.name + 1), 'ada@example.com'],
    ['Ada', `${'a'.repeat(CHECKIN_TEXT_LIMITS.email - 12)}@example.com`],
    ['Ada', `${'a'.repeat(CHECKIN_TEXT_LIMITS.email - 11)}@example.com`],
  ])('accepts the name %j and email %j exactly when the server does', (name, email) => {
    const server = serverVerdict(name, email);
    const page = pageVerdict(name, email);
    expect([server, page.length === 0]).toEqual([server, server === 'accepted']);
    expect(validateEmail(email) === null).toBe(server === 'accepted' || !server.includes('email'));
  });

  it.each(['42', '-1.5', ' 7 ', '1,5', 'ten', '1e3', '.5'])(
    'reads the custom number %j as the server does',
    (value) => {
      const field = {
        key: 'custom-n',
        label: 'N',
        type: 'number',
        required: true,
        enabled: true,
        position: 1,
      } as FormField;
      let serverAccepts = true;
      try {
        validateCustomFields({ 'custom-n': value }, [field]);
      } catch {
        serverAccepts = false;
      }
      expect(validateCheckin({ name: 'Ada', email: 'ada@example.com', formFields: [{ ...field, value }] })).toEqual(
        serverAccepts ? [] : [{ field: 'custom-n', key: 'notNumber' }],
      );
    },
  );
});
