import { type PersonLinkSubject, signPersonLink, verifyPersonLink } from '#lib/platform/person-link-token';
import type { Language } from '#lib/platform/languages';
import { EMAIL_MESSAGES, dateInWords } from '#lib/photos/notices/rules/email-messages';
import { linkEmail } from '#lib/photos/notices/rules/photo-notice';

/**
 * Check-in invitations (docs/checkin-page.md#invitations): in an `importedOnly` gallery, a
 * check-in completes the person imported with an address only with that person's invitation, a
 * signed token emailed to the address. Whoever types a colleague's address gets no link, so
 * cannot complete the colleague or learn their access code.
 */

/** How long an invitation opens the check-in: 14 days, from a company's announcement to the shooting days. */
export const INVITATION_LIFETIME_MS = 14 * 24 * 60 * 60_000;

/** At most one invitation email per person this often, however many check-ins ask for it. */
export const INVITATION_EMAIL_INTERVAL_MS = 5 * 60_000;

/** An invitation of the subject that expires INVITATION_LIFETIME_MS after `at`. */
export function signInvitation(
  key: string,
  subject: PersonLinkSubject,
  at: number,
): { invitation: string; expiresAt: string } {
  const { token, expiresAt } = signPersonLink(key, 'checkin-invitation-v1', subject, at + INVITATION_LIFETIME_MS);
  return { invitation: token, expiresAt };
}

/** The person an invitation names in this gallery at `at`; undefined for one malformed, forged, of another gallery, or expired. */
export function verifyInvitation(
  key: string,
  gallery: { tenantId: string; galleryToken: string },
  invitation: string,
  at: number,
): string | undefined {
  return verifyPersonLink(key, 'checkin-invitation-v1', gallery, invitation, at);
}

/** The check-in page's address that opens the check-in with the invitation (in the fragment, which no server sees). */
export function invitationUrl(
  checkinPageUrl: string,
  address: { tenantSlug: string; galleryToken: string; invitation: string },
): string {
  const url = new URL(checkinPageUrl);
  url.searchParams.set('tenant', address.tenantSlug);
  url.searchParams.set('token', address.galleryToken);
  url.hash = `invitation/${address.invitation}`;
  return url.toString();
}

export interface InvitationEmailInput {
  language: Language;
  personName: string;
  galleryName: string;
  studioName: string;
  checkinUrl: string;
  expiresAt: string;
}

/** The invitation email's subject and body in the input's language (its sentences are in lib/photos/notices/rules/email-messages.ts). */
export function invitationEmailContent(input: InvitationEmailInput): { subject: string; text: string; html: string } {
  const messages = EMAIL_MESSAGES[input.language];
  return linkEmail(
    { personName: input.personName, url: input.checkinUrl, language: input.language },
    {
      subject: messages.invitationSubject(input.galleryName),
      lead: messages.invitationIntro(input.galleryName, input.studioName),
      linkText: messages.invitationLinkText,
      closing: [messages.invitationValidity(dateInWords(input.expiresAt, input.language)), messages.invitationIgnore],
    },
  );
}
