import iconv from 'iconv-lite';
import { decodeText, delimiterOption, detectDelimiter } from '../../../scripts/import/detect-format';
import { UsageError } from '../../../scripts/cli-kit/cli-errors';

const TEXT = 'Vorname;Nachname\nJürgen;Müller-Lüdenscheidt\nZoë;Ødegård ẞ €\n';

describe('decodeText', () => {
  it.each<[string, Buffer, string]>([
    ['UTF-8', Buffer.from(TEXT, 'utf8'), 'UTF-8'],
    ['UTF-8 with BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(TEXT, 'utf8')]), 'UTF-8 with BOM'],
    ['UTF-16LE with BOM', iconv.encode(TEXT, 'utf-16le', { addBOM: true }), 'UTF-16LE'],
    ['UTF-16BE with BOM', iconv.encode(TEXT, 'utf-16be', { addBOM: true }), 'UTF-16BE'],
    ['UTF-16LE without BOM', iconv.encode(TEXT, 'utf-16le'), 'UTF-16LE'],
  ])('reads %s, the mark not part of the text', (_case, bytes, encoding) => {
    const decoded = decodeText(bytes);
    expect(decoded).toEqual({ text: TEXT, encoding });
  });

  it('reads bytes that are not UTF-8 as Windows-1252 (umlauts, €)', () => {
    const text = 'Name\nJürgen Müller\nFrançoise Süß 5 €\n';
    expect(decodeText(iconv.encode(text, 'windows-1252'))).toEqual({ text, encoding: 'windows-1252' });
  });

  it('takes the encoding it is given, and refuses one that does not exist', () => {
    const latin = iconv.encode('Name\nJosé\n', 'latin1');
    expect(decodeText(latin, 'latin1').text).toBe('Name\nJosé\n');
    // Valid UTF-8 read as Windows-1252 because it was asked for: the bytes are taken at their word.
    expect(decodeText(Buffer.from('ü', 'utf8'), 'windows-1252').text).toBe('Ã¼');
    expect(() => decodeText(latin, 'klingon')).toThrow(UsageError);
  });
});

describe('detectDelimiter', () => {
  it.each([
    ['comma', 'name,email\na,b\nc,d\n', ','],
    ['semicolon', 'Personalnummer;Vorname Nachname;E-Mail;Termin\n1;Jürgen Müller;j@x.de;2027-03-01\n', ';'],
    ['tab', 'Name\tE-Mail\nA\ta@x.de\n', '\t'],
    ['one column', 'Name\nAda\n', ','],
    ['semicolons with commas in names', 'Name, Vorname;E-Mail\n"Müller, Jürgen";j@x.de\n"Lovelace, Ada";a@x.de\n', ';'],
    ['commas with a semicolon in a quoted header', '"a;b",c,d\n1,2,3\n4,5,6\n', ','],
    ['CRLF line ends', 'a;b;c\r\n1;2;3\r\n', ';'],
  ])('finds the %s', (_case, text, delimiter) => {
    expect(detectDelimiter(text)).toBe(delimiter);
  });
});

describe('delimiterOption', () => {
  it.each([
    [';', ';'],
    ['semicolon', ';'],
    ['tab', '\t'],
    ['\\t', '\t'],
    ['|', '|'],
  ])('reads %j as %j', (option, delimiter) => {
    expect(delimiterOption(option)).toBe(delimiter);
  });

  it.each(['', ';;', '"'])('refuses %j', (option) => {
    expect(() => delimiterOption(option)).toThrow(UsageError);
  });
});
