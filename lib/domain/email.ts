import * as v from 'valibot';

const EmailSchema = v.pipe(v.string(), v.email());

/** A plausible address (valibot's check): one @, a domain with a dot, no spaces. */
export function isPlausibleEmail(value: string): boolean {
  return v.is(EmailSchema, value);
}
