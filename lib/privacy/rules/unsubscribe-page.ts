import type { Language } from '#lib/platform/languages';

/**
 * The page of an email's unsubscribe link (lib/privacy/unsubscribe.ts): a GET shows it with one
 * button, which POSTs `List-Unsubscribe=One-Click` to the same address, as a mail provider's
 * button does; the POST answers a browser with the page again, saying it is done. Plain HTML
 * without script, in the participant's language.
 */

interface UnsubscribePageWords {
  title: string;
  question: (gallery: string, studio: string) => string;
  button: string;
  done: (gallery: string, studio: string) => string;
  notNotified: (gallery: string, studio: string) => string;
  otherConsents: string;
}

export const UNSUBSCRIBE_PAGE_WORDS: Record<Language, UnsubscribePageWords> = {
  en: {
    title: 'Unsubscribe',
    question: (gallery, studio) => `Stop emails about your photos from ${gallery} (${studio})?`,
    button: 'Unsubscribe',
    done: (gallery, studio) => `Done: you get no more emails about your photos from ${gallery} (${studio}).`,
    notNotified: (gallery, studio) => `You get no emails about your photos from ${gallery} (${studio}).`,
    otherConsents:
      'Your other consents are on the page your photo link opens. To have all your data erased, write to the studio.',
  },
  de: {
    title: 'Abbestellen',
    question: (gallery, studio) => `Keine E-Mails mehr zu Ihren Fotos von ${gallery} (${studio})?`,
    button: 'Abbestellen',
    done: (gallery, studio) => `Erledigt: Sie erhalten keine E-Mails mehr zu Ihren Fotos von ${gallery} (${studio}).`,
    notNotified: (gallery, studio) => `Sie erhalten keine E-Mails zu Ihren Fotos von ${gallery} (${studio}).`,
    otherConsents:
      'Ihre übrigen Einwilligungen finden Sie auf der Seite, die Ihr Foto-Link öffnet. Um alle Ihre Daten löschen zu lassen, schreiben Sie dem Studio.',
  },
  fr: {
    title: 'Se désabonner',
    question: (gallery, studio) => `Ne plus recevoir d'e-mails sur vos photos de ${gallery} (${studio}) ?`,
    button: 'Me désabonner',
    done: (gallery, studio) => `C'est fait : vous ne recevrez plus d'e-mails sur vos photos de ${gallery} (${studio}).`,
    notNotified: (gallery, studio) => `Vous ne recevez pas d'e-mails sur vos photos de ${gallery} (${studio}).`,
    otherConsents:
      "Vos autres consentements se trouvent sur la page qu'ouvre votre lien photo. Pour faire effacer toutes vos données, écrivez au studio.",
  },
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** The page: the question and its button while emails still go out, else that none do (`done` after a POST). */
export function unsubscribePage(input: {
  language: Language;
  galleryName: string;
  studioName: string;
  notified: boolean;
  done?: boolean;
}): string {
  const words = UNSUBSCRIBE_PAGE_WORDS[input.language];
  const gallery = input.galleryName;
  const studio = input.studioName;
  const body = input.notified
    ? [
        `<p>${escapeHtml(words.question(gallery, studio))}</p>`,
        // The form posts to this very address: the same request a mail provider's button sends.
        '<form method="post" enctype="application/x-www-form-urlencoded">',
        '<input type="hidden" name="List-Unsubscribe" value="One-Click">',
        `<button type="submit">${escapeHtml(words.button)}</button>`,
        '</form>',
      ]
    : [`<p role="status">${escapeHtml((input.done ? words.done : words.notNotified)(gallery, studio))}</p>`];
  return [
    `<!doctype html><html lang="${input.language}"><head><meta charset="utf-8">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(words.title)}</title>`,
    '<style>body{font:1rem/1.5 system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem}button{font:inherit;padding:.5rem 1rem}</style>',
    `</head><body><main><h1>${escapeHtml(words.title)}</h1>`,
    ...body,
    `<p>${escapeHtml(words.otherConsents)}</p>`,
    '</main></body></html>',
  ].join('\n');
}

/**
 * Whether a POST body is the one-click request of RFC 8058: `List-Unsubscribe=One-Click`, form
 * encoded (as providers and the page send it) or as a multipart form field.
 */
export function isOneClickBody(rawBody: string, contentType: string | undefined): boolean {
  if (contentType?.toLowerCase().startsWith('multipart/form-data'))
    return /name="List-Unsubscribe"\r?\n\r?\nOne-Click\r?\n/.test(rawBody);
  return new URLSearchParams(rawBody.trim()).get('List-Unsubscribe') === 'One-Click';
}
