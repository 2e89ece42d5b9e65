/**
 * Readers of the options only the admin CLI has: plan tiers, Stripe accounts, currencies, form
 * fields and rate budgets. The readers every CLI uses are in scripts/cli-kit/options.ts.
 */
import { UsageError } from '../cli-kit/cli-errors';
import { type OptionValues, optionalChoice, optionalList, optionalText, requiredText } from '../cli-kit/options';
import { FORM_FIELD_TYPES, type FormFieldOption, type FormFieldType } from '#lib/galleries/rules/gallery-model';
import { PLAN_TIERS, type PlanTier, isPlanTier } from '#lib/tenants/rules/plans';

const STRIPE_ACCOUNT_SHAPE = /^acct_[A-Za-z0-9_]{1,255}$/;

/** One of the plan tiers of lib/tenants/rules/plans.ts, case-insensitive. */
export function optionalPlanTier(values: OptionValues, name = 'plan'): PlanTier | undefined {
  const tier = optionalText(values, name)?.toLowerCase();
  if (tier === undefined) return undefined;
  if (!isPlanTier(tier))
    throw new UsageError(`--${name} "${tier}" is not a plan tier: use one of ${PLAN_TIERS.join(', ')}`);
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
    throw new UsageError(
      `--${name} must be LIMIT/WINDOW with the window in s, m or h (for example 100/20m), not "${text}"`,
    );
  }
  return { limit, windowMs };
}
