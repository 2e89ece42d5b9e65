import { LANGUAGES } from '#lib/platform/languages';
import { EMAIL_MESSAGES, dateInWords } from '#lib/photos/notices/rules/email-messages';
import { photoLinkContent, photoNoticeContent } from '#lib/photos/notices/rules/photo-notice';

const input = (language: (typeof LANGUAGES)[number]) => ({
  personName: 'Jürgen Müller',
  galleryName: 'Sommerfest 2026',
  studioName: 'Studio Licht',
  photoViewUrl: 'https://checkin.example.com/?tenant=licht&token=abc#my-photos/link/per_1.2.mac',
  linkExpiresAt: '2026-12-03T10:00:00.000Z',
  language,
  unsubscribeUrl: 'https://api.example.com/v1/unsubscribe/ten_1.abc.per_1.2.mac',
});

describe('the email message catalogue', () => {
  const keys = Object.keys(EMAIL_MESSAGES.en).sort();

  it.each(LANGUAGES)('has every message in %s, none empty', (language) => {
    const messages = EMAIL_MESSAGES[language];
    expect(Object.keys(messages).sort()).toEqual(keys);
    for (const [key, message] of Object.entries(messages)) {
      const written =
        typeof message === 'function' ? (message as (...values: string[]) => string)('«A»', '«B»') : message;
      expect([key, written.trim().length > 0]).toEqual([key, true]);
      if (typeof message === 'function') expect([key, written.includes('«A»')]).toEqual([key, true]);
    }
  });

  it.each(LANGUAGES.filter((language) => language !== 'en'))(
    'translates every sentence in %s (none left in English)',
    (language) => {
      for (const key of keys.filter((name) => name !== 'locale')) {
        const say = (messages: (typeof EMAIL_MESSAGES)['en']) => {
          const message = messages[key as keyof typeof messages];
          return typeof message === 'function' ? message('x', 'y') : message;
        };
        expect([key, say(EMAIL_MESSAGES[language])]).not.toEqual([key, say(EMAIL_MESSAGES.en)]);
      }
    },
  );

  it('writes dates as each language does in a letter, in UTC', () => {
    expect(LANGUAGES.map((language) => dateInWords('2026-12-03T23:30:00.000Z', language))).toEqual([
      '3 December 2026',
      '3. Dezember 2026',
      '3 décembre 2026',
    ]);
  });
});

describe.each([
  ['photo-ready email', photoNoticeContent],
  ['photo link email', photoLinkContent],
])('the %s', (_name, content) => {
  it.each(LANGUAGES)(
    'in %s: the greeting alone on its line, then a paragraph that begins with a capital letter',
    (language) => {
      const { text, html } = content(input(language));
      const [greeting, blank, sentence] = text.split('\n');
      expect(greeting).toBe(EMAIL_MESSAGES[language].greeting('Jürgen Müller'));
      expect(blank).toBe('');
      expect(sentence).toMatch(/^\p{Lu}/u);
      expect(html).toContain(`<html lang="${language}">`);
      expect(html).toMatch(/<p>[^<]+Jürgen Müller,<\/p>\n<p>\p{Lu}/u);
    },
  );
});

describe.each([
  ['photo-ready email', photoNoticeContent],
  ['photo link email', photoLinkContent],
])('the %s and one-click unsubscribe', (_name, content) => {
  it.each(LANGUAGES)('in %s: carries the RFC 8058 headers and the link in its text and HTML', (language) => {
    // Act
    const { text, html, headers } = content(input(language));
    // Assess
    expect(headers).toEqual([
      { name: 'List-Unsubscribe', value: '<https://api.example.com/v1/unsubscribe/ten_1.abc.per_1.2.mac>' },
      { name: 'List-Unsubscribe-Post', value: 'List-Unsubscribe=One-Click' },
    ]);
    expect(
      text.endsWith(
        `${EMAIL_MESSAGES[language].unsubscribeLead}\nhttps://api.example.com/v1/unsubscribe/ten_1.abc.per_1.2.mac`,
      ),
    ).toBe(true);
    expect(html).toContain('<a href="https://api.example.com/v1/unsubscribe/ten_1.abc.per_1.2.mac">');
  });
});

describe('emails in German', () => {
  it('greets, dates and words the photo-ready email in German', () => {
    const { subject, text } = photoNoticeContent(input('de'));
    expect(subject).toBe('Ihre Fotos sind fertig: Sommerfest 2026');
    expect(text).toContain('Guten Tag Jürgen Müller,\n\nIhre Fotos von Sommerfest 2026 (Studio Licht) sind fertig.');
    expect(text).toContain('bis zum 3. Dezember 2026 gültig');
  });

  it('keeps names out of the markup', () => {
    const { html } = photoLinkContent({ ...input('de'), personName: 'Grace <Hopper>' });
    expect(html).toContain('Guten Tag Grace &#60;Hopper&#62;,');
    expect(html).not.toContain('<Hopper>');
  });
});
