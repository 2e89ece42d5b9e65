import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { CheckinRequest } from '#lib/checkin/checkin-schemas';
import { ImportRequest } from '#lib/persons/person-schemas';
import {
  CHECKOUT_TOKEN_MAX_LENGTH,
  CUSTOM_TEXT_LIMITS,
  MAX_PERSONS_PER_IMPORT,
  MAX_SELFIE_BYTES,
  MAX_SELFIE_PIXELS,
  RETURN_URL_MAX_LENGTH,
  TEXT_LIMITS,
  mebibytes,
} from '#lib/platform/field-limits';

/** The limits table of the API reference: its rows by their first cell. */
const reference = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'api-reference.md'), 'utf8');
const limitsSection = reference.slice(reference.indexOf('## Limits'), reference.indexOf('## Versioning'));
const limitRows = new Map([...limitsSection.matchAll(/^\| ([^|]+) \| ([^|]+) \|/gm)].map((row) => [row[1]!.trim(), row[2]!]));

/** The limits that one source holds are the ones the documentation states. */
describe('field limits', () => {
  it.each(Object.entries(TEXT_LIMITS))('documents %s as at most %i characters', (field, limit) => {
    expect(limitRows.get(`\`${field}\``)).toMatch(new RegExp(`\\b${limit} characters`));
  });

  it('documents the other limits with their values', () => {
    expect(limitRows.get('Custom fields')).toContain(`\`text\` at most ${CUSTOM_TEXT_LIMITS.text}, \`textarea\` at most ${CUSTOM_TEXT_LIMITS.textarea} characters`);
    expect(limitRows.get('Persons per import')).toContain(`1 to ${MAX_PERSONS_PER_IMPORT}`);
    expect(limitRows.get('Selfie')).toContain(`at most ${mebibytes(MAX_SELFIE_BYTES)}`);
    expect(limitRows.get('Selfie')).toContain(`at most ${MAX_SELFIE_PIXELS / 1_000_000} megapixels`);
    expect(limitRows.get('`statusToken`, `retryToken`')).toContain(`at most ${CHECKOUT_TOKEN_MAX_LENGTH} characters`);
    expect(limitRows.get('`returnUrl`')).toContain(`at most ${RETURN_URL_MAX_LENGTH} characters`);
  });

  it('gives the OpenAPI schemas of the check-in and import bodies the same maximum lengths', () => {
    const maxLength = (schema: v.GenericSchema): number | undefined => {
      const inner = 'wrapped' in schema ? (schema.wrapped as v.GenericSchema) : schema;
      const pipe = 'pipe' in inner ? (inner.pipe as { type: string; requirement?: unknown }[]) : [];
      return pipe.find((action) => action.type === 'max_length')?.requirement as number | undefined;
    };
    for (const [field, limit] of Object.entries(TEXT_LIMITS)) {
      expect([field, maxLength(CheckinRequest.entries[field as keyof typeof CheckinRequest.entries] as v.GenericSchema)]).toEqual([field, limit]);
    }
    const row = ImportRequest.entries.persons.pipe[0].item.entries;
    expect([maxLength(row.name), maxLength(row.email.wrapped.wrapped), maxLength(row.employeeId.wrapped.wrapped)]).toEqual([
      TEXT_LIMITS.name,
      TEXT_LIMITS.email,
      TEXT_LIMITS.employeeId,
    ]);
  });
});
