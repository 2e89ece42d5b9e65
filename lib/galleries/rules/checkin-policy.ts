/**
 * Who may check in to a gallery through its public page (docs/checkin-page.md#who-may-check-in).
 *
 * - `allowedEmailDomains`: when not empty, only email addresses at one of these domains. An entry
 *   `example.com` matches exactly that domain; `*.example.com` matches its subdomains
 *   (`mail.example.com`, `a.b.example.com`), not `example.com` itself. Domains are compared
 *   without regard to case, internationalised ones as written (Unicode and its `xn--` form are
 *   different entries: list both if participants may type either).
 * - `mode`: `open` lets anyone check in (within the domains); `importedOnly` only the persons the
 *   HR import created, found by email or employee ID, and completes that person.
 */
export const CHECKIN_MODES = ['open', 'importedOnly'] as const;
export type CheckinMode = (typeof CHECKIN_MODES)[number];

export interface CheckinPolicy {
  mode: CheckinMode;
  allowedEmailDomains: string[];
}

export const OPEN_CHECKIN_POLICY: CheckinPolicy = { mode: 'open', allowedEmailDomains: [] };

/** Enough for a group of companies; the message that names them stays readable. */
export const MAX_ALLOWED_EMAIL_DOMAINS = 20;

/** A DNS label: letters (any script), digits and inner hyphens, at most 63 characters. */
const LABEL = /^(?!-)[\p{L}\p{N}-]{1,63}(?<!-)$/u;

/** A gallery's policy: its own where it sets one, open with any domain elsewhere. */
export function checkinPolicyOf(configured: Partial<CheckinPolicy> | undefined): CheckinPolicy {
  return { ...OPEN_CHECKIN_POLICY, ...configured };
}

/**
 * One allowed-domain entry as stored (lower case, no surrounding space or final dot), or the
 * reason it is not one: a domain of two labels or more, optionally after `*.`.
 */
export function normalizeAllowedDomain(entry: string): { domain: string } | { problem: string } {
  const domain = entry.trim().toLowerCase().replace(/\.$/, '');
  const labels = (domain.startsWith('*.') ? domain.slice(2) : domain).split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) {
    return { problem: `"${entry}" is not a domain such as example.com or *.example.com` };
  }
  return { domain };
}

/** The domain part of an address (after its last @), as compared: lower case, no final dot. */
export function emailDomainOf(email: string): string {
  return email
    .trim()
    .slice(email.trim().lastIndexOf('@') + 1)
    .toLowerCase()
    .replace(/\.$/, '');
}

/** Whether the address may check in under the allowed domains (every address when there are none). */
export function isEmailDomainAllowed(email: string, allowedDomains: readonly string[]): boolean {
  if (allowedDomains.length === 0) return true;
  const domain = emailDomainOf(email);
  return allowedDomains.some((allowed) =>
    allowed.startsWith('*.') ? domain.endsWith(allowed.slice(1)) : domain === allowed,
  );
}

/** The sentence that tells a participant which addresses the gallery takes. */
export function allowedDomainsInWords(allowedDomains: readonly string[]): string {
  const named = allowedDomains.map((domain) =>
    domain.startsWith('*.') ? `any subdomain of ${domain.slice(2)}` : domain,
  );
  const list = named.length === 1 ? named[0]! : `${named.slice(0, -1).join(', ')} or ${named.at(-1)}`;
  return `Check-ins to this gallery need an email address at ${list}.`;
}
