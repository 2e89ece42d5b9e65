/**
 * Readers of option values that every CLI uses: text, flags, numbers, dates, lists, and the
 * identifiers the tools share (tenant slug, gallery token). Each refuses a bad value with a
 * UsageError (exit code 2) that names the option, before anything is read or written.
 */
import { UsageError } from './cli-errors';
import { normalizeTenantSlug } from '#lib/tenants/rules/tenant-slug';
import { GALLERY_TOKEN_MAX_LENGTH, isGalleryTokenShaped } from '#lib/platform/identifiers';

/** Option values as `util.parseArgs` returns them for one command. */
export type OptionValues = Record<string, string | boolean | undefined>;

const DATE_SHAPE = /^\d{4}-\d{2}-\d{2}$/;
const TIME_SHAPE = /^(?:[01]\d|2[0-3]):[0-5]\d$/;
const WHOLE_NUMBER_SHAPE = /^\d+$/;

function stringValue(values: OptionValues, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

/** A text option that must be given and not blank, trimmed. */
export function requiredText(values: OptionValues, name: string, maxLength = 200): string {
  const text = optionalText(values, name, maxLength);
  if (text === undefined) throw new UsageError(`--${name} is required`);
  return text;
}

/** A text option that may be left out, but not given blank; trimmed. */
export function optionalText(values: OptionValues, name: string, maxLength = 200): string | undefined {
  const value = stringValue(values, name);
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === '') throw new UsageError(`--${name} must not be empty`);
  if (text.length > maxLength) throw new UsageError(`--${name} must be at most ${maxLength} characters`);
  return text;
}

/** A tenant slug in its normalized form (lowercase, DNS-label shaped). */
export function tenantSlug(values: OptionValues, name: string): string {
  const presented = requiredText(values, name, 200);
  const slug = normalizeTenantSlug(presented);
  if (slug === undefined) {
    throw new UsageError(
      `--${name} "${presented}" is not a valid tenant slug: use lowercase letters, digits and inner hyphens, at most 63 characters`,
    );
  }
  return slug;
}

/** A gallery token option, refused without a lookup when it cannot be a token. */
export function galleryToken(values: OptionValues, name = 'gallery'): string {
  const token = requiredText(values, name, GALLERY_TOKEN_MAX_LENGTH);
  if (!isGalleryTokenShaped(token)) throw new UsageError(`--${name} "${token}" is not a gallery token`);
  return token;
}

/** `true` or `false` spelled out, for settings that an update may turn either way. */
export function optionalTrueFalse(values: OptionValues, name: string): boolean | undefined {
  const word = optionalText(values, name)?.toLowerCase();
  if (word === undefined) return undefined;
  if (word !== 'true' && word !== 'false') throw new UsageError(`--${name} must be true or false, not "${word}"`);
  return word === 'true';
}

/** Whether a boolean option was given. */
export function flag(values: OptionValues, name: string): boolean {
  return values[name] === true;
}

/** One of a fixed set of words. */
export function optionalChoice<T extends string>(
  values: OptionValues,
  name: string,
  choices: readonly T[],
): T | undefined {
  const word = optionalText(values, name);
  if (word === undefined) return undefined;
  if (!(choices as readonly string[]).includes(word)) {
    throw new UsageError(`--${name} "${word}" is not valid: use one of ${choices.join(', ')}`);
  }
  return word as T;
}

/** A whole number of at least `minimum`, written in digits. */
export function optionalWholeNumber(values: OptionValues, name: string, minimum: number): number | undefined {
  const text = optionalText(values, name);
  if (text === undefined) return undefined;
  const number = Number(text);
  if (!WHOLE_NUMBER_SHAPE.test(text) || !Number.isSafeInteger(number) || number < minimum) {
    throw new UsageError(`--${name} must be a whole number of at least ${minimum}, not "${text}"`);
  }
  return number;
}

/** Like optionalWholeNumber, but the option must be given. */
export function requiredWholeNumber(values: OptionValues, name: string, minimum: number): number {
  const number = optionalWholeNumber(values, name, minimum);
  if (number === undefined) throw new UsageError(`--${name} is required`);
  return number;
}

/** A calendar date as YYYY-MM-DD that exists (no 2027-02-30). */
export function requiredDate(values: OptionValues, name: string): string {
  const text = requiredText(values, name);
  const parsed = new Date(`${text}T00:00:00Z`);
  if (!DATE_SHAPE.test(text) || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== text) {
    throw new UsageError(`--${name} "${text}" is not a date in the form YYYY-MM-DD`);
  }
  return text;
}

/** A time of day as HH:MM on the 24-hour clock. */
export function requiredTime(values: OptionValues, name: string): string {
  const text = requiredText(values, name);
  if (!TIME_SHAPE.test(text))
    throw new UsageError(`--${name} "${text}" is not a time in the form HH:MM (00:00 to 23:59)`);
  return text;
}

/** A comma-separated list (`face,notification`), blanks dropped. */
export function optionalList(values: OptionValues, name: string): string[] | undefined {
  const text = stringValue(values, name);
  if (text === undefined) return undefined;
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}
