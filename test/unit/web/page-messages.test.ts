import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { LANGUAGES } from '#lib/platform/languages';
import { WEB_DIR, runPageScripts } from './page-scripts';

const messages = runPageScripts(...LANGUAGES.map((language) => `messages/${language}.js`))
  .GROUPSHOOT_MESSAGES as Record<string, Record<string, string>>;
const english = messages.en!;

describe('the check-in page messages', () => {
  it('has a message file for each language the API takes, and none else', () => {
    const files = readdirSync(join(WEB_DIR, 'messages')).map((file) => file.replace(/\.js$/, ''));
    expect(files.sort()).toEqual([...LANGUAGES].sort());
    expect(Object.keys(messages).sort()).toEqual([...LANGUAGES].sort());
  });

  it.each(LANGUAGES.filter((language) => language !== 'en'))(
    'has every English key in %s, and no other',
    (language) => {
      const keys = Object.keys(messages[language]!);
      expect(Object.keys(english).filter((key) => !keys.includes(key))).toEqual([]);
      expect(keys.filter((key) => !(key in english))).toEqual([]);
    },
  );

  it.each(LANGUAGES)(
    'has in %s the same {placeholders} in each message as English, and no empty message',
    (language) => {
      const placeholders = (text: string) => (text.match(/\{\w+\}/g) ?? []).sort();
      for (const [key, text] of Object.entries(messages[language]!)) {
        expect([key, text.trim() === '']).toEqual([key, false]);
        expect([key, placeholders(text)]).toEqual([key, placeholders(english[key]!)]);
      }
    },
  );

  it('has a key for every data-i18n name of index.html and every message key the scripts use', () => {
    const sources = ['index.html', 'checkin.js', 'checkin-form.js', 'field-errors.js', 'my-photos.js']
      .map((file) => readFileSync(join(WEB_DIR, file), 'utf8'))
      .join('\n');
    const named = [
      ...[...sources.matchAll(/data-i18n="([\w.]+)"/g)].map((match) => match[1]!),
      ...[...sources.matchAll(/(?:alt|aria-label)=([\w.]+)/g)].map((match) => match[1]!),
      ...[...sources.matchAll(/\b(?:status|t|showError|linkSent)\('([\w.]*\w)'/g)].map((match) => match[1]!),
      ...[...sources.matchAll(/(?:setText\([^,]+|showProblem\('\w+'), '([\w.]+)'/g)].map((match) => match[1]!),
    ];
    const plural = (key: string) => key in english || `${key}_other` in english;
    expect(named.length).toBeGreaterThan(70);
    expect(named.filter((key) => !plural(key))).toEqual([]);
  });
});
