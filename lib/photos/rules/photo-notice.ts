import type { GranularConsents } from '#lib/galleries/rules/gallery-model';
import type { Person } from '#lib/persons/rules/person-model';

/**
 * The photo-ready email (docs/photos.md#photo-ready-emails): who gets it and what it says. One
 * email per person ever, when their first photos are there; photos added later are not
 * announced again, the link always shows all of them.
 *
 * The email holds a photo link (lib/photos/rules/photo-link.ts), not the access code: the link
 * opens this one person's photos for PHOTO_LINK_LIFETIME_MS and sits in the address's fragment,
 * which browsers never send to a server, and the page takes it out of the address bar.
 */

/** The person item's attributes that hold a notice's state (lib/photos/store/photo-notices.ts); the sender may update no others. */
export const PHOTO_NOTICE_ATTRIBUTES = ['photoNoticeClaimedAt', 'photoNoticeSentAt', 'photoNoticeRejectedAt'] as const;

/** Where a notice stands on the person item: claimed by a sender now, or done for good. */
export interface PhotoNoticeState {
  /** When a sender claimed the notice (ms); a claim older than PHOTO_NOTICE_CLAIM_MS is abandoned. */
  claimedAt?: number;
  /** When the email was accepted by the mail service. */
  sentAt?: string;
  /** When the mail service refused the message for good (an address it will never take). */
  rejectedAt?: string;
}

/**
 * How long a claim holds before another sender may take it over: twice the function's timeout
 * (60 s, infra/function-permissions.ts), so that only a sender that died lets its claim lapse.
 */
export const PHOTO_NOTICE_CLAIM_MS = 2 * 60_000;

/** What is to be done about a person's notice, and why not where nothing is. */
export type PhotoNoticeDecision =
  | 'send'
  /** The gallery does not ask for the notification consent (or stopped asking). */
  | 'gallery_not_asking'
  /** The person did not consent (false), or was never asked (null). */
  | 'no_consent'
  | 'no_email'
  /** The person has no photos now (a late camera card moved them to someone else). */
  | 'no_photos'
  | 'done_already'
  /** Another sender holds a live claim: try again once it sent or its claim lapsed. */
  | 'claimed_elsewhere';

/** Whether the person is to get the photo-ready email now. */
export function photoNoticeDecision(
  gallery: { granularConsents: GranularConsents },
  person: Pick<Person, 'email' | 'consents' | 'photoCount'>,
  state: PhotoNoticeState,
  at: number,
): PhotoNoticeDecision {
  if (state.sentAt !== undefined || state.rejectedAt !== undefined) return 'done_already';
  if (!gallery.granularConsents.notification) return 'gallery_not_asking';
  if (person.consents.notificationConsent !== true) return 'no_consent';
  if (!person.email) return 'no_email';
  if (person.photoCount <= 0) return 'no_photos';
  if (state.claimedAt !== undefined && at - state.claimedAt < PHOTO_NOTICE_CLAIM_MS) return 'claimed_elsewhere';
  return 'send';
}

/**
 * The participant's photo view on the check-in page: the page's address with the tenant and
 * gallery token, opening the "My photos" view, with a photo link in the fragment
 * (`#my-photos/link/<photoLink>`) where one is given. The one place that knows this form.
 */
export function photoViewUrl(checkinPageUrl: string, address: { tenantSlug: string; galleryToken: string; photoLink?: string }): string {
  const url = new URL(checkinPageUrl);
  url.searchParams.set('tenant', address.tenantSlug);
  url.searchParams.set('token', address.galleryToken);
  url.hash = address.photoLink === undefined ? 'my-photos' : `my-photos/link/${address.photoLink}`;
  return url.toString();
}

export interface PhotoNoticeContent {
  subject: string;
  text: string;
  html: string;
}

/** What the photo-ready email and the photo link email both say about the link. */
interface LinkEmailInput {
  personName: string;
  galleryName: string;
  studioName: string;
  /** The photo view with the person's photo link. */
  photoViewUrl: string;
  /** Until when the link opens the photos, ISO 8601. */
  linkExpiresAt: string;
}

/** The link's lifetime in the email's words: the date (UTC) it stops working, and how to get a new one. */
function linkValidity(expiresAt: string): string {
  return `This link is yours alone and works until ${expiresAt.slice(0, 10)}; after that, ask for a new one on the same page with this email address.`;
}

/** The photo-ready email's subject and body, as plain text and simple HTML with the same content. */
export function photoNoticeContent(input: LinkEmailInput): PhotoNoticeContent {
  const { personName, galleryName, studioName, photoViewUrl: link, linkExpiresAt } = input;
  const subject = `Your photos are ready: ${oneLine(galleryName)}`;
  const text = [
    `Hello ${personName},`,
    '',
    `your photos from ${galleryName} (${studioName}) are ready. See and download them here:`,
    link,
    '',
    linkValidity(linkExpiresAt),
    '',
    'More photos may still be added; the same link always shows all of them, and you will not get another email about them.',
    '',
    'You get this email because you asked at check-in to be told when your photos are ready.',
  ].join('\n');
  const html = [
    '<!doctype html><html><body>',
    `<p>Hello ${escapeHtml(personName)},</p>`,
    `<p>your photos from ${escapeHtml(galleryName)} (${escapeHtml(studioName)}) are ready.</p>`,
    `<p><a href="${escapeHtml(link)}">See and download your photos</a></p>`,
    `<p>${escapeHtml(linkValidity(linkExpiresAt))}</p>`,
    '<p>More photos may still be added; the same link always shows all of them, and you will not get another email about them.</p>',
    '<p>You get this email because you asked at check-in to be told when your photos are ready.</p>',
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}

/** The email with a photo link that someone asked for on the page (sendPhotoLink, or a lookup past its budgets). */
export function photoLinkContent(input: LinkEmailInput): PhotoNoticeContent {
  const { personName, galleryName, studioName, photoViewUrl: link, linkExpiresAt } = input;
  const subject = `Your photo link: ${oneLine(galleryName)}`;
  const ignore = 'If you did not ask for it, you can ignore this email: nobody else gets the link.';
  const text = [
    `Hello ${personName},`,
    '',
    `here is the link to your photos from ${galleryName} (${studioName}):`,
    link,
    '',
    linkValidity(linkExpiresAt),
    '',
    ignore,
  ].join('\n');
  const html = [
    '<!doctype html><html><body>',
    `<p>Hello ${escapeHtml(personName)},</p>`,
    `<p>here is the link to your photos from ${escapeHtml(galleryName)} (${escapeHtml(studioName)}):</p>`,
    `<p><a href="${escapeHtml(link)}">See and download your photos</a></p>`,
    `<p>${escapeHtml(linkValidity(linkExpiresAt))}</p>`,
    `<p>${escapeHtml(ignore)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}

/** A subject is one line: line breaks in a name would end the header. */
function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').trim();
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
