import { LANGUAGES, firstLanguage, isLanguage } from '#lib/platform/languages';

describe('languages', () => {
  it('are English, German and French', () => {
    expect(LANGUAGES).toEqual(['en', 'de', 'fr']);
  });

  it.each([
    ['de', true],
    ['EN', false],
    ['de-DE', false],
    [null, false],
    [undefined, false],
    [1, false],
  ])('isLanguage(%p) is %p', (value, expected) => {
    expect(isLanguage(value)).toBe(expected);
  });

  it("takes the participant's language, then the gallery's, then English", () => {
    expect(firstLanguage('fr', 'de')).toBe('fr');
    expect(firstLanguage(undefined, 'de')).toBe('de');
    expect(firstLanguage(null, 'es')).toBe('en');
    expect(firstLanguage()).toBe('en');
  });
});
