/**
 * The languages the check-in page and the participant's emails speak (docs/checkin-page.md):
 * the one list the API, the admin CLI and the email catalogue read. The page keeps its own
 * message files for the same set.
 */
export const LANGUAGES = ['en', 'de', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];

/** What a gallery speaks unless its studio chooses another language. */
export const DEFAULT_LANGUAGE: Language = 'en';

export function isLanguage(value: unknown): value is Language {
  return (LANGUAGES as readonly unknown[]).includes(value);
}

/** The first of the given languages that is one of ours, else English: a participant's, then the gallery's default. */
export function firstLanguage(...candidates: readonly (string | null | undefined)[]): Language {
  return candidates.find(isLanguage) ?? DEFAULT_LANGUAGE;
}
