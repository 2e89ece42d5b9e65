import { DomainError } from '#lib/platform/domain-error';
import type { FormField } from '#lib/galleries/rules/gallery-model';

/** Longest accepted value of a `text` and of a `textarea` custom form field. */
export const CUSTOM_TEXT_LIMITS = { text: 500, textarea: 2000 } as const;

const NUMBER_TEXT = /^-?\d+(\.\d+)?$/;

function invalid(key: string, message: string): DomainError {
  return new DomainError('invalid_custom_field', message, { key });
}

/**
 * The values of the gallery's enabled `custom-*` fields: required ones must be there, numbers
 * must parse (stored as numbers), select values must be options, texts have a length limit.
 * Keys of no enabled custom field are dropped: a page built before a field was disabled must
 * not stop participants from checking in.
 */
export function validateCustomFields(input: Record<string, unknown>, formFields: readonly FormField[]) {
  const values: Record<string, string | number> = {};
  for (const field of formFields) {
    if (!field.enabled || !field.key.startsWith('custom-')) continue;
    const raw = input[field.key];
    const empty = raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '');
    if (empty) {
      if (field.required) throw invalid(field.key, `${field.label} is required.`);
      continue;
    }
    switch (field.type) {
      case 'number': {
        const value =
          typeof raw === 'number' ? raw : typeof raw === 'string' && NUMBER_TEXT.test(raw.trim()) ? Number(raw) : NaN;
        if (!Number.isFinite(value)) throw invalid(field.key, `${field.label} must be a number.`);
        values[field.key] = value;
        break;
      }
      case 'select': {
        if (typeof raw !== 'string' || !(field.options ?? []).some((option) => option.value === raw)) {
          throw invalid(field.key, `${field.label} must be one of its options.`);
        }
        values[field.key] = raw;
        break;
      }
      default: {
        const limit = CUSTOM_TEXT_LIMITS[field.type];
        if (typeof raw !== 'string' || raw.trim().length > limit) {
          throw invalid(field.key, `${field.label} must be text of at most ${limit} characters.`);
        }
        values[field.key] = raw.trim();
      }
    }
  }
  return values;
}
