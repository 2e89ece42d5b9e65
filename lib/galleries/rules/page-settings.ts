import { type Language, firstLanguage } from '#lib/platform/languages';

/**
 * What a studio gives the check-in page (docs/checkin-page.md#settings-a-studio-gives-the-page):
 * the gallery's default language, its consent text per language, a link to the terms of its
 * paid packages; its logo and accent colour are lib/tenants/rules/branding.ts' (a tenant has them too).
 */

export const MAX_TERMS_URL_LENGTH = 500;
/** As the gallery's own consent text (admin CLI `--consent-text`). */
export const MAX_CONSENT_TEXT_LENGTH = 5000;

/** The terms link as stored, or why not: an absolute https URL without credentials, at most MAX_TERMS_URL_LENGTH characters. */
export function checkTermsUrl(input: string): { url: string } | { problem: string } {
  const text = input.trim();
  if (text.length > MAX_TERMS_URL_LENGTH)
    return { problem: `the terms URL is longer than ${MAX_TERMS_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: `"${text}" is not an absolute URL such as https://studio.example/terms` };
  }
  if (url.protocol !== 'https:') return { problem: 'the terms URL must start with https://' };
  if (url.username !== '' || url.password !== '')
    return { problem: 'the terms URL must not hold a user name or password' };
  return { url: url.toString() };
}

/**
 * The consent texts by language as the page gets them: the translations the studio gave, and
 * the gallery's own consent text under its default language unless a translation sets that too.
 */
export function consentTextsOf(gallery: {
  consentText?: string;
  consentTexts?: Partial<Record<Language, string>>;
  defaultLanguage?: Language;
}): Partial<Record<Language, string>> {
  const own = gallery.consentText === undefined ? {} : { [defaultLanguageOf(gallery)]: gallery.consentText };
  return { ...own, ...gallery.consentTexts };
}

/** The gallery's default language: its own, else English. */
export function defaultLanguageOf(gallery: { defaultLanguage?: Language }): Language {
  return firstLanguage(gallery.defaultLanguage);
}
