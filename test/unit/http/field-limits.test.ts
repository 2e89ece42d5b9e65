import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSubmitCheckin } from '#lib/checkin/checkin-schemas';
import { returnUrlOf } from '#lib/payments/checkout-urls';
import { parseCheckinStatus, parseRetryCheckout } from '#lib/payments/payment-schemas';
import { parseImportRequest } from '#lib/persons/person-schemas';
import { parseMyPhotos } from '#lib/photos/access/photo-schemas';
import { CHECKOUT_TOKEN_MAX_LENGTH, RETURN_URL_MAX_LENGTH } from '#lib/payments/rules/payment-limits';
import { CUSTOM_TEXT_LIMITS } from '#lib/galleries/rules/custom-fields';
import { MAX_PERSONS_PER_IMPORT } from '#lib/persons/rules/person-limits';
import { CHECKIN_TEXT_LIMITS, MAX_SELFIE_BYTES, MAX_SELFIE_PIXELS } from '#lib/checkin/rules/checkin-limits';
import { mebibytes } from '#lib/platform/byte-sizes';

import { buildOpenApiDocument } from '../../../scripts/openapi/build-openapi';
import { refusalOf } from '../../support/domain-errors';

/** The limits table of the API reference: its rows by their first cell. */
const reference = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'api-reference.md'), 'utf8');
const limitsSection = reference.slice(reference.indexOf('## Limits'), reference.indexOf('## Versioning'));
const limitRows = new Map(
  [...limitsSection.matchAll(/^\| ([^|]+) \| ([^|]+) \|/gm)].map((row) => [row[1]!.trim(), row[2]!]),
);

/** The limits that one source holds are the ones the documentation states. */
describe('field limits', () => {
  it.each(Object.entries(CHECKIN_TEXT_LIMITS))('documents %s as at most %i characters', (field, limit) => {
    expect(limitRows.get(`\`${field}\``)).toMatch(new RegExp(`\\b${limit} characters`));
  });

  it('documents the other limits with their values', () => {
    expect(limitRows.get('Custom fields')).toContain(
      `\`text\` at most ${CUSTOM_TEXT_LIMITS.text}, \`textarea\` at most ${CUSTOM_TEXT_LIMITS.textarea} characters`,
    );
    expect(limitRows.get('Persons per import')).toContain(`1 to ${MAX_PERSONS_PER_IMPORT}`);
    expect(limitRows.get('Selfie')).toContain(`at most ${mebibytes(MAX_SELFIE_BYTES)}`);
    expect(limitRows.get('Selfie')).toContain(`at most ${MAX_SELFIE_PIXELS / 1_000_000} megapixels`);
    expect(limitRows.get('`statusToken`, `retryToken`')).toContain(`at most ${CHECKOUT_TOKEN_MAX_LENGTH} characters`);
    expect(limitRows.get('`returnUrl`')).toContain(`at most ${RETURN_URL_MAX_LENGTH} characters`);
  });
});

type JsonSchema = {
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  type?: string;
  maxLength?: number;
  maxItems?: number;
};

const documentedSchemas = buildOpenApiDocument().components.schemas as Record<string, JsonSchema>;

/** The members of a documented object with a maximum length (on the member, or on its string alternative). */
function documentedMaxLengths(schema: JsonSchema): [string, number][] {
  return Object.entries(schema.properties ?? {}).flatMap(([member, property]) => {
    const limit = property.maxLength ?? property.anyOf?.find((alternative) => alternative.type === 'string')?.maxLength;
    return limit === undefined ? [] : [[member, limit] as [string, number]];
  });
}

/** A value of exactly `length` characters that passes every other rule of the member. */
function valueOfLength(member: string, length: number): string {
  if (member === 'email') return `${'a'.repeat(length - '@example.com'.length)}@example.com`;
  if (member === 'returnUrl') return `http://localhost/${'x'.repeat(length - 'http://localhost/'.length)}`;
  return 'x'.repeat(length);
}

/** returnUrl is refused after the payment checks, by returnUrlOf: its limit is enforced there. */
const LOCAL_RETURN = { checkinPageUrl: 'http://localhost/checkin', local: true };
const withReturnUrl = (returnUrl: string | null | undefined) =>
  returnUrlOf(returnUrl, { allowedReturnOrigins: [] }, LOCAL_RETURN);

/** Each action's documented body, a body it takes, and what a body goes through before the use case refuses nothing of its form. */
const ACTION_BODIES: {
  schema: string;
  valid: Record<string, unknown>;
  take: (body: Record<string, unknown>) => unknown;
}[] = [
  {
    schema: 'SubmitCheckinRequest',
    valid: { action: 'submitCheckin', token: 'gallery1', name: 'Ada Lovelace', email: 'ada@example.com' },
    take: (body) => withReturnUrl(parseSubmitCheckin(body).returnUrl),
  },
  {
    schema: 'CheckinStatusRequest',
    valid: { action: 'checkinStatus', statusToken: 'gst_1' },
    take: parseCheckinStatus,
  },
  {
    schema: 'RetryCheckoutRequest',
    valid: { action: 'retryCheckout', retryToken: 'grt_1' },
    take: (body) => withReturnUrl(parseRetryCheckout(body).returnUrl),
  },
  {
    schema: 'MyPhotosRequest',
    valid: { action: 'myPhotos', token: 'gallery1', code: 'K7QM', email: 'ada@example.com' },
    take: parseMyPhotos,
  },
];

/** The request bodies are documented by the schemas that parse them: what the document states is what the parsers hold. */
describe.each(ACTION_BODIES)('the documented body $schema', ({ schema, valid, take }) => {
  const limits = documentedMaxLengths(documentedSchemas[schema]!);

  it('states maximum lengths', () => {
    expect(limits.length).toBeGreaterThan(0);
  });

  it.each(limits)('takes %s of its documented %i characters and refuses one more as invalid_field', (member, limit) => {
    expect(() => take({ ...valid, [member]: valueOfLength(member, limit) })).not.toThrow();
    expect(refusalOf(() => take({ ...valid, [member]: valueOfLength(member, limit + 1) }))).toMatchObject({
      reason: 'invalid_field',
      subject: { field: member },
    });
  });
});

describe('the documented submitCheckin body', () => {
  it.each(Object.entries(CHECKIN_TEXT_LIMITS))('states the limit of %s, %i characters', (field, limit) => {
    expect(documentedMaxLengths(documentedSchemas.SubmitCheckinRequest!)).toContainEqual([field, limit]);
  });
});

describe('the documented import body', () => {
  const persons = documentedSchemas.ImportRequest!.properties!.persons!;
  const rowLimits = documentedMaxLengths(persons.items!);
  const TOO_LONG: Record<string, string> = {
    name: 'name_too_long',
    email: 'email_too_long',
    employeeId: 'employee_id_too_long',
  };
  const verdictOf = (row: Record<string, unknown>) => parseImportRequest({ persons: [row] }).persons[0];

  it('states the maximum lengths of name, email and employeeId', () => {
    expect(rowLimits.map(([member]) => member).sort()).toEqual(Object.keys(TOO_LONG).sort());
  });

  it.each(rowLimits)(
    'takes a row with %s of its documented %i characters and skips one with one more',
    (member, limit) => {
      expect(verdictOf({ name: 'Ada Lovelace', [member]: valueOfLength(member, limit) })).toMatchObject({ ok: true });
      expect(verdictOf({ name: 'Ada Lovelace', [member]: valueOfLength(member, limit + 1) })).toEqual({
        ok: false,
        reason: TOO_LONG[member],
      });
    },
  );

  it('takes as many rows as it states and refuses one more as too_many_persons', () => {
    expect(persons.maxItems).toBe(MAX_PERSONS_PER_IMPORT);
    expect(parseImportRequest({ persons: new Array(persons.maxItems).fill({ name: 'A' }) }).persons).toHaveLength(
      MAX_PERSONS_PER_IMPORT,
    );
    expect(
      refusalOf(() => parseImportRequest({ persons: new Array(persons.maxItems! + 1).fill({ name: 'A' }) })).reason,
    ).toBe('too_many_persons');
  });
});
