import { UsageError } from './admin-errors';
import { FORM_FIELD_TYPES, type FormFieldOption, type FormFieldType } from '#lib/galleries/rules/gallery-model';
import { PLAN_TIERS, type PlanTier, isPlanTier } from '#lib/tenants/rules/plans';
import { normalizeTenantSlug } from '#lib/tenants/rules/tenant-slug';
import { GALLERY_TOKEN_MAX_LENGTH, isGalleryTokenShaped } from '#lib/platform/identifiers';

/** Option values as `util.parseArgs` returns them for one command. */
export type OptionValues = Record<string, string | boolean | undefined>;

const DATE_SHAPE = /^\d{4}-\d{2}-\d{2}$/;
const TIME_SHAPE = /^(?:[01]\d|2[0-3]):[0-5]\d$/;
const WHOLE_NUMBER_SHAPE = /^\d+$/;
const STRIPE_ACCOUNT_SHAPE = /^acct_[A-Za-z0-9_]{1,255}$/;

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

/** One of the plan tiers of lib/tenants/rules/plans.ts, case-insensitive. */
export function optionalPlanTier(values: OptionValues, name = 'plan'): PlanTier | undefined {
  const tier = optionalText(values, name)?.toLowerCase();
  if (tier === undefined) return undefined;
  if (!isPlanTier(tier)) throw new UsageError(`--${name} "${tier}" is not a plan tier: use one of ${PLAN_TIERS.join(', ')}`);
  return tier;
}

/** A Stripe connected-account ID (`acct_...`). */
export function optionalStripeAccount(values: OptionValues, name = 'stripe-account'): string | undefined {
  const account = optionalText(values, name);
  if (account !== undefined && !STRIPE_ACCOUNT_SHAPE.test(account)) {
    throw new UsageError(`--${name} "${account}" is not a Stripe account ID (acct_...)`);
  }
  return account;
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
export function optionalChoice<T extends string>(values: OptionValues, name: string, choices: readonly T[]): T | undefined {
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
  if (!TIME_SHAPE.test(text)) throw new UsageError(`--${name} "${text}" is not a time in the form HH:MM (00:00 to 23:59)`);
  return text;
}

/** An ISO 4217 currency code, lowercase as Stripe and the table keep it. */
export function requiredCurrency(values: OptionValues, name = 'currency'): string {
  const code = requiredText(values, name).toLowerCase();
  if (!/^[a-z]{3}$/.test(code) || !Intl.supportedValuesOf('currency').includes(code.toUpperCase())) {
    throw new UsageError(`--${name} "${code}" is not an ISO 4217 currency code such as eur or usd`);
  }
  return code;
}

/** A form field type: text, textarea, number or select. */
export function requiredFieldType(values: OptionValues, name = 'type'): FormFieldType {
  const type = optionalChoice(values, name, FORM_FIELD_TYPES);
  if (type === undefined) throw new UsageError(`--${name} is required`);
  return type;
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

/** Select options written as `value=Label,value2=Label 2`; values must be unique. */
export function optionalSelectOptions(values: OptionValues, name = 'options'): FormFieldOption[] | undefined {
  const entries = optionalList(values, name);
  if (entries === undefined) return undefined;
  if (entries.length === 0) throw new UsageError(`--${name} needs at least one value=Label entry`);
  const options = entries.map((entry) => {
    const separator = entry.indexOf('=');
    const value = entry.slice(0, separator).trim();
    const label = entry.slice(separator + 1).trim();
    if (separator < 0 || value === '' || label === '') {
      throw new UsageError(`--${name} entry "${entry}" is not of the form value=Label`);
    }
    return { value, label };
  });
  const optionValues = options.map((option) => option.value);
  const duplicate = optionValues.find((value, index) => optionValues.indexOf(value) !== index);
  if (duplicate !== undefined) throw new UsageError(`--${name} lists the value "${duplicate}" twice`);
  return options;
}

const RATE_SHAPE = /^(\d+)\/(\d+)(s|m|h)$/;
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000 } as const;

/** A rate budget written `LIMIT/WINDOW`, the window in s, m or h: `100/20m` is 100 per 20 minutes. */
export function optionalRate(values: OptionValues, name: string): { limit: number; windowMs: number } | undefined {
  const text = optionalText(values, name);
  if (text === undefined) return undefined;
  const match = RATE_SHAPE.exec(text);
  const limit = Number(match?.[1]);
  const windowMs = Number(match?.[2]) * UNIT_MS[(match?.[3] ?? 's') as keyof typeof UNIT_MS];
  if (!match || limit < 1 || windowMs < 1000 || !Number.isSafeInteger(limit) || !Number.isSafeInteger(windowMs)) {
    throw new UsageError(`--${name} must be LIMIT/WINDOW with the window in s, m or h (for example 100/20m), not "${text}"`);
  }
  return { limit, windowMs };
}
