import { createHash } from 'node:crypto';
import * as v from 'valibot';

const EmailSchema = v.pipe(v.string(), v.email());

/** A plausible address (valibot's check): one @, a domain with a dot, no spaces. */
export function isPlausibleEmail(value: string): boolean {
  return v.is(EmailSchema, value);
}

/**
 * What an email address is counted under: a hash of it, case and surrounding space ignored
 * (mail providers treat addresses so), so that counters hold no address.
 */
export function emailKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('base64url').slice(0, 22);
}

/** Whether two addresses are the same one, as the service compares addresses everywhere (case and surrounding space ignored). */
export function sameEmailAddress(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}
