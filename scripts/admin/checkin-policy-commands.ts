import { UsageError } from '../cli-kit/cli-errors';
import { formatFields, formatTable } from '../cli-kit/output';
import { findGallery } from '../cli-kit/lookups';
import {
  type OptionValues,
  flag,
  galleryToken,
  optionalChoice,
  optionalList,
  optionalText,
  tenantSlug,
} from '../cli-kit/options';
import type { CommandHandlers } from './command-types';
import { updateGallerySettings } from '#lib/galleries/store/galleries';
import { putImportedPersonsOnGuestList } from '#lib/persons/store/guest-list';
import { invitationsToHandOut } from '#lib/checkin/invitations';
import {
  CHECKIN_MODES,
  MAX_ALLOWED_EMAIL_DOMAINS,
  checkinPolicyOf,
  normalizeAllowedDomain,
} from '#lib/galleries/rules/checkin-policy';

/** `gallery checkin-policy`: who may check in through the gallery's public page. */
export const checkinPolicyCommands: CommandHandlers = {
  /** Shows the policy; with options, sets those (the rest stay). */
  async 'checkin-policy'(values) {
    tenantSlug(values, 'tenant');
    const token = galleryToken(values);
    const mode = optionalChoice(values, 'mode', CHECKIN_MODES);
    const allowedEmailDomains = allowedDomains(values);
    const { tenant, configuration } = await findGallery(values);
    const policy = checkinPolicyOf({
      ...configuration.gallery.checkinPolicy,
      ...(mode ? { mode } : {}),
      ...(allowedEmailDomains ? { allowedEmailDomains } : {}),
    });
    if (mode || allowedEmailDomains) await updateGallerySettings(tenant.tenantId, token, { checkinPolicy: policy });
    // Persons imported before the guest list existed are put on it as the gallery turns importedOnly.
    const listed =
      mode === 'importedOnly' ? await putImportedPersonsOnGuestList({ tenantId: tenant.tenantId, token }) : undefined;
    return {
      data: policy,
      lines: [
        `Check-in policy of gallery ${token}`,
        ...formatFields([
          [
            'mode',
            policy.mode === 'open'
              ? 'open: anyone may check in'
              : 'importedOnly: only persons of the HR import, each with their invitation',
          ],
          ['email domains', policy.allowedEmailDomains.length > 0 ? policy.allowedEmailDomains.join(', ') : 'any'],
        ]),
        ...(listed === undefined ? [] : [`${listed} imported person(s) with an email address on the guest list`]),
      ],
    };
  },

  /** The invitations to hand to persons imported without an address (their employee ID opens nothing). */
  async invitations(values) {
    const pageUrl = optionalText(values, 'page-url') ?? process.env.CHECKIN_PAGE_URL;
    if (!pageUrl) throw new UsageError('Give --page-url (the check-in page), or set CHECKIN_PAGE_URL');
    const { tenant, configuration } = await findGallery(values);
    const invitations = await invitationsToHandOut(tenant, configuration.gallery.token, pageUrl);
    return {
      data: invitations,
      lines: [
        `${invitations.length} person(s) imported without an email address, not checked in yet: hand each their link`,
        ...formatTable(
          ['NAME', 'EMPLOYEE ID', 'CHECK-IN LINK', 'VALID UNTIL'],
          invitations.map((handed) => [handed.name, handed.employeeId ?? '', handed.checkinUrl, handed.expiresAt]),
        ),
      ],
    };
  },
};

/** `--domains a.com,*.b.com` as stored, `--any-domain` as none; undefined when neither is given. */
function allowedDomains(values: OptionValues): string[] | undefined {
  const entries = optionalList(values, 'domains');
  const any = flag(values, 'any-domain');
  if (entries !== undefined && any) throw new UsageError('Give either --domains or --any-domain, not both');
  if (any) return [];
  if (entries === undefined) return undefined;
  if (entries.length === 0)
    throw new UsageError('--domains needs at least one domain, such as example.com (or give --any-domain)');
  if (entries.length > MAX_ALLOWED_EMAIL_DOMAINS)
    throw new UsageError(`--domains takes at most ${MAX_ALLOWED_EMAIL_DOMAINS} domains`);
  const domains = entries.map((entry) => {
    const normalized = normalizeAllowedDomain(entry);
    if ('problem' in normalized) throw new UsageError(`--domains: ${normalized.problem}`);
    return normalized.domain;
  });
  return [...new Set(domains)];
}
