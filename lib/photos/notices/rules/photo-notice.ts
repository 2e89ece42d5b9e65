import type { GranularConsents } from '#lib/galleries/rules/gallery-model';
import type { Person } from '#lib/persons/rules/person-model';
import { escapeHtml, oneLine } from '#lib/photos/notices/rules/email-text';
import type { Language } from '#lib/platform/languages';
import { EMAIL_MESSAGES, dateInWords } from '#lib/photos/notices/rules/email-messages';
import { PHOTO_NOTICE_CLAIM_MS, type PhotoNoticeState } from '#lib/persons/rules/photo-notice-state';

/**
 * The photo-ready email (docs/photos.md#photo-ready-emails): who gets it and what it says. One
 * email per person ever, when their first photos are there; photos added later are not
 * announced again, the link always shows all of them.
 *
 * The email holds a photo link (lib/photos/links/rules/photo-link-token.ts), not the access code: the link
 * opens this one person's photos for PHOTO_LINK_LIFETIME_MS and sits in the address's fragment,
 * which browsers never send to a server, and the page takes it out of the address bar.
 */

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

export interface PhotoNoticeContent {
  subject: string;
  text: string;
  html: string;
  /** Headers of its own: the one-click unsubscribe of RFC 8058 on every notification email. */
  headers?: readonly EmailHeader[];
}

/** A header line of an email. */
export interface EmailHeader {
  name: string;
  value: string;
}

/**
 * The headers of one-click unsubscribe (RFC 8058, RFC 2369): mail providers show an
 * "Unsubscribe" button that POSTs `List-Unsubscribe=One-Click` to the URL, with no further step.
 */
export function oneClickUnsubscribeHeaders(unsubscribeUrl: string): EmailHeader[] {
  return [
    { name: 'List-Unsubscribe', value: `<${unsubscribeUrl}>` },
    { name: 'List-Unsubscribe-Post', value: 'List-Unsubscribe=One-Click' },
  ];
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
  /** The language to write in (lib/photos/notices/rules/email-messages.ts). */
  language: Language;
  /** The person's one-click unsubscribe address (lib/photos/links/unsubscribe-links.ts): in the text and in the headers. */
  unsubscribeUrl: string;
}

/** What an email with a link says, in its input's language: the subject, the paragraph that leads to the link, the link's text, the paragraphs after it. */
export interface LinkEmailWords {
  subject: string;
  lead: string;
  linkText: string;
  closing: readonly string[];
}

/**
 * An email as plain text and simple HTML with the same content: the greeting, a paragraph that
 * leads to the link, the link, then the closing paragraphs.
 */
export function linkEmail(
  input: { personName: string; url: string; language: Language; unsubscribeUrl?: string },
  words: LinkEmailWords,
): PhotoNoticeContent {
  const messages = EMAIL_MESSAGES[input.language];
  const greeting = messages.greeting(input.personName);
  const subject = oneLine(words.subject);
  const unsubscribe = input.unsubscribeUrl;
  const text = [
    greeting,
    '',
    words.lead,
    input.url,
    ...words.closing.flatMap((paragraph) => ['', paragraph]),
    ...(unsubscribe ? ['', messages.unsubscribeLead, unsubscribe] : []),
  ].join('\n');
  const html = [
    `<!doctype html><html lang="${input.language}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body>`,
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(words.lead)}</p>`,
    `<p><a href="${escapeHtml(input.url)}">${escapeHtml(words.linkText)}</a></p>`,
    ...words.closing.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    ...(unsubscribe
      ? [
          `<p>${escapeHtml(messages.unsubscribeLead)} <a href="${escapeHtml(unsubscribe)}">${escapeHtml(messages.unsubscribeLinkText)}</a></p>`,
        ]
      : []),
    '</body></html>',
  ].join('\n');
  return { subject, text, html, ...(unsubscribe ? { headers: oneClickUnsubscribeHeaders(unsubscribe) } : {}) };
}

/** A photo link email: its validity, then `closing`. */
function photoLinkEmail(
  input: LinkEmailInput,
  subject: string,
  lead: string,
  closing: readonly string[],
): PhotoNoticeContent {
  const messages = EMAIL_MESSAGES[input.language];
  const validity = messages.linkValidity(dateInWords(input.linkExpiresAt, input.language));
  return linkEmail(
    {
      personName: input.personName,
      url: input.photoViewUrl,
      language: input.language,
      unsubscribeUrl: input.unsubscribeUrl,
    },
    { subject, lead, linkText: messages.linkText, closing: [validity, ...closing] },
  );
}

/** The photo-ready email's subject and body in the input's language. */
export function photoNoticeContent(input: LinkEmailInput): PhotoNoticeContent {
  const messages = EMAIL_MESSAGES[input.language];
  return photoLinkEmail(
    input,
    messages.noticeSubject(input.galleryName),
    messages.photosReady(input.galleryName, input.studioName),
    [messages.morePhotosMayFollow, messages.whyThisNotice],
  );
}

/** The email with a photo link that someone asked for on the page (sendPhotoLink, or a lookup past its budgets). */
export function photoLinkContent(input: LinkEmailInput): PhotoNoticeContent {
  const messages = EMAIL_MESSAGES[input.language];
  return photoLinkEmail(
    input,
    messages.linkSubject(input.galleryName),
    messages.linkIntro(input.galleryName, input.studioName),
    [messages.ignoreIfNotAsked],
  );
}
