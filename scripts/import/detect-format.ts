import iconv from 'iconv-lite';
import { UsageError } from '../cli-kit/cli-errors';

/** Text as decoded from a file's bytes, with the encoding it was read in (for the printed summary). */
export interface DecodedText {
  text: string;
  /** A label for people: "UTF-8 with BOM", "UTF-16LE", "windows-1252", or the --encoding given. */
  encoding: string;
}

const BYTE_ORDER_MARKS: { bytes: number[]; encoding: string; label: string }[] = [
  { bytes: [0xef, 0xbb, 0xbf], encoding: 'utf8', label: 'UTF-8 with BOM' },
  { bytes: [0xff, 0xfe], encoding: 'utf-16le', label: 'UTF-16LE' },
  { bytes: [0xfe, 0xff], encoding: 'utf-16be', label: 'UTF-16BE' },
];

/**
 * Decodes a text export. With `encoding` (any name iconv-lite knows) that encoding is used; a
 * byte order mark decides otherwise; then UTF-16 without a mark (every other byte zero, as in
 * ASCII text), UTF-8 when the bytes are valid UTF-8, else Windows-1252, which is what Excel and
 * most HR systems on German Windows write when they do not write Unicode. A mark is never part
 * of the text.
 */
export function decodeText(bytes: Uint8Array, encoding?: string): DecodedText {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (encoding !== undefined) {
    const requested: string = encoding;
    if (!iconv.encodingExists(encoding))
      throw new UsageError(
        `--encoding: "${requested}" is not an encoding (try utf-8, utf-16le, utf-16be or windows-1252)`,
      );
    return { text: iconv.decode(buffer, encoding, { stripBOM: true }), encoding };
  }
  const mark = BYTE_ORDER_MARKS.find((candidate) => candidate.bytes.every((byte, index) => buffer[index] === byte));
  if (mark) return { text: iconv.decode(buffer, mark.encoding, { stripBOM: true }), encoding: mark.label };
  const unmarkedUtf16 = utf16WithoutMark(buffer);
  if (unmarkedUtf16)
    return {
      text: iconv.decode(buffer, unmarkedUtf16, { stripBOM: true }),
      encoding: unmarkedUtf16 === 'utf-16le' ? 'UTF-16LE' : 'UTF-16BE',
    };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(buffer), encoding: 'UTF-8' };
  } catch {
    return { text: iconv.decode(buffer, 'windows-1252'), encoding: 'windows-1252' };
  }
}

/** Mostly-ASCII UTF-16 has a zero in every other byte; CSV text in any 8-bit encoding has none. */
function utf16WithoutMark(buffer: Buffer): 'utf-16le' | 'utf-16be' | undefined {
  const sample = buffer.subarray(0, Math.min(buffer.length, 4096) & ~1);
  if (sample.length < 4) return undefined;
  let zeroEven = 0;
  let zeroOdd = 0;
  for (let index = 0; index < sample.length; index += 2) {
    if (sample[index] === 0) zeroEven += 1;
    if (sample[index + 1] === 0) zeroOdd += 1;
  }
  const pairs = sample.length / 2;
  // A few zeros on the other side are characters such as U+0100 (Ā), never 8-bit text.
  if (zeroOdd > pairs * 0.4 && zeroEven < pairs * 0.05) return 'utf-16le';
  if (zeroEven > pairs * 0.4 && zeroOdd < pairs * 0.05) return 'utf-16be';
  return undefined;
}

const DELIMITER_NAMES: Record<string, string> = { comma: ',', semicolon: ';', tab: '\t', '\\t': '\t', pipe: '|' };
const CANDIDATES = [',', ';', '\t'] as const;

/** The `--delimiter` option: one character, or comma, semicolon, tab (also \t) or pipe. */
export function delimiterOption(option: string): string {
  const delimiter = DELIMITER_NAMES[option.toLowerCase()] ?? option;
  if ([...delimiter].length !== 1 || delimiter === '"' || /[\r\n]/.test(delimiter)) {
    throw new UsageError(`--delimiter: "${option}" is not one character (or comma, semicolon, tab)`);
  }
  return delimiter;
}

/** How people call a delimiter in the printed summary. */
export function delimiterName(delimiter: string): string {
  return (
    Object.entries(DELIMITER_NAMES).find(([name, value]) => value === delimiter && name !== '\\t')?.[0] ??
    `"${delimiter}"`
  );
}

/** How often a delimiter occurs in a line outside double quotes. */
function countOutsideQuotes(line: string, delimiter: string): number {
  let count = 0;
  let quoted = false;
  for (const character of line) {
    if (character === '"') quoted = !quoted;
    else if (character === delimiter && !quoted) count += 1;
  }
  return count;
}

/**
 * Comma, semicolon or tab, from the header and the first lines: the delimiter that splits the
 * header and splits most of the following lines into as many fields wins; without one that
 * splits consistently, the one the header has most of; a file of one column is read with commas.
 */
export function detectDelimiter(text: string): string {
  const lines = text
    .split(/\r\n|\n|\r/)
    .filter((line) => line.trim() !== '')
    .slice(0, 20);
  const [header, ...sample] = lines;
  if (header === undefined) return ',';
  const scored = CANDIDATES.map((delimiter) => {
    const inHeader = countOutsideQuotes(header, delimiter);
    const agreeing = sample.filter((line) => countOutsideQuotes(line, delimiter) === inHeader).length;
    return { delimiter, inHeader, consistent: inHeader > 0 && agreeing >= sample.length * 0.8 };
  }).filter((candidate) => candidate.inHeader > 0);
  const best = (candidates: typeof scored) =>
    candidates.reduce<(typeof scored)[number] | undefined>(
      (top, candidate) => (!top || candidate.inHeader > top.inHeader ? candidate : top),
      undefined,
    );
  return (best(scored.filter((candidate) => candidate.consistent)) ?? best(scored))?.delimiter ?? ',';
}
