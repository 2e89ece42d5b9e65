import { checkTermsUrl, consentTextsOf, defaultLanguageOf } from '#lib/galleries/rules/page-settings';

describe('checkTermsUrl', () => {
  it('takes an https URL, normalised', () => {
    expect(checkTermsUrl(' https://Studio.example/agb?x=1 ')).toEqual({ url: 'https://studio.example/agb?x=1' });
  });

  it.each([
    ['http://studio.example/terms', /https/],
    ['javascript:alert(1)', /https/],
    ['studio.example/terms', /absolute URL/],
    ['https://me:pw@studio.example/', /user name or password/],
    [`https://studio.example/${'x'.repeat(480)}`, /longer than 500/],
  ])('refuses %s', (input, problem) => {
    expect(checkTermsUrl(input)).toEqual({ problem: expect.stringMatching(problem) });
  });
});

describe('consentTextsOf and defaultLanguageOf', () => {
  it("puts the gallery's consent text under its default language, English where it has none", () => {
    expect(consentTextsOf({ consentText: 'I agree.' })).toEqual({ en: 'I agree.' });
    expect(
      consentTextsOf({ consentText: 'Ich willige ein.', defaultLanguage: 'de', consentTexts: { fr: "J'accepte." } }),
    ).toEqual({
      de: 'Ich willige ein.',
      fr: "J'accepte.",
    });
    expect(defaultLanguageOf({})).toBe('en');
  });

  it('lets a translation for the default language win over the consent text', () => {
    expect(consentTextsOf({ consentText: 'Old', defaultLanguage: 'de', consentTexts: { de: 'Neu' } })).toEqual({
      de: 'Neu',
    });
  });

  it('serves no texts where the gallery asks for no consent text', () => {
    expect(consentTextsOf({})).toEqual({});
  });
});
