/**
 * Printable camera cards (docs/photos.md#camera-cards): what a card shows, the order cards are
 * printed in, and where everything sits on the sheet. Lengths are PDF points (1/72 inch), the
 * origin is the page's top-left corner. Four cards per page (2 × 2), each as large as the paper
 * allows, so the QR code stays readable in a photo of the participant holding the card.
 */

/** The paper sizes cards are laid out for. */
export const CARD_PAPERS = ['a4', 'letter'] as const;
export type CardPaper = (typeof CARD_PAPERS)[number];

const MILLIMETRE = 72 / 25.4;

/** Page sizes in points: ISO 216 A4 (210 × 297 mm) and US Letter (8.5 × 11 in). */
export const PAPER_SIZES: Record<CardPaper, { width: number; height: number }> = {
  a4: { width: 595.28, height: 841.89 },
  letter: { width: 612, height: 792 },
};

/** Most office printers cannot print the outer 4-6 mm; the cut lines stay clear of that. */
const PAGE_MARGIN = 10 * MILLIMETRE;
const COLUMNS = 2;
const ROWS = 2;
/** Between the cut line and the text or the QR code's own quiet zone. */
const CARD_PADDING = 5 * MILLIMETRE;
const GAP = 1.5 * MILLIMETRE;

/** Font sizes in points: the code in large type, readable from across the room and in a photo. */
export const CARD_FONT_SIZES = { name: 16, details: 11, code: 44 } as const;

/** What one card shows. */
export interface CameraCard {
  name: string;
  /** The person's access code: the QR code's whole text, and printed in large type. */
  code: string;
  /** The shooting day's label and date, where the person has one. */
  day: string | null;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A line of text: its box (top of the line at `y`) and its largest font size. */
export interface TextSlot extends Box {
  fontSize: number;
}

/** Where one card's parts go on its page. */
export interface CardPlacement {
  /** The card's outline, drawn as a dashed cut line. */
  cut: Box;
  name: TextSlot;
  details: TextSlot;
  /** The QR code's square including its quiet zone of QR_QUIET_ZONE_MODULES on every side. */
  qr: Box;
  code: TextSlot;
}

/** The 4 light modules the QR specification asks for around the symbol, kept inside the card. */
export const QR_QUIET_ZONE_MODULES = 4;

/** The card sheet for `cardCount` cards: page size and, per page, the cards' placements. */
export interface CardSheet {
  pageSize: { width: number; height: number };
  pages: CardPlacement[][];
}

/** Lays out `cardCount` cards in reading order, four per page; no page for no card. */
export function layoutCameraCards(paper: CardPaper, cardCount: number): CardSheet {
  const pageSize = PAPER_SIZES[paper];
  const cells = gridCells(pageSize);
  const pages: CardPlacement[][] = [];
  for (let index = 0; index < cardCount; index += 1) {
    if (index % cells.length === 0) pages.push([]);
    pages.at(-1)!.push(placeCard(cells[index % cells.length]!));
  }
  return { pageSize, pages };
}

function gridCells(pageSize: { width: number; height: number }): Box[] {
  const width = (pageSize.width - 2 * PAGE_MARGIN) / COLUMNS;
  const height = (pageSize.height - 2 * PAGE_MARGIN) / ROWS;
  const cells: Box[] = [];
  for (let row = 0; row < ROWS; row += 1) {
    for (let column = 0; column < COLUMNS; column += 1) {
      cells.push({ x: PAGE_MARGIN + column * width, y: PAGE_MARGIN + row * height, width, height });
    }
  }
  return cells;
}

/** Name and details at the top, the QR code as large as the rest allows, the code below it. */
function placeCard(cut: Box): CardPlacement {
  const innerWidth = cut.width - 2 * CARD_PADDING;
  const x = cut.x + CARD_PADDING;
  const nameHeight = CARD_FONT_SIZES.name * 1.2;
  const detailsHeight = CARD_FONT_SIZES.details * 1.2;
  const codeHeight = CARD_FONT_SIZES.code * 1.1;
  const name = { x, y: cut.y + CARD_PADDING, width: innerWidth, height: nameHeight, fontSize: CARD_FONT_SIZES.name };
  const details = {
    x,
    y: name.y + nameHeight + GAP,
    width: innerWidth,
    height: detailsHeight,
    fontSize: CARD_FONT_SIZES.details,
  };
  const qrTop = details.y + detailsHeight;
  const qrSide = Math.min(innerWidth, cut.y + cut.height - CARD_PADDING - codeHeight - qrTop);
  const qr = { x: cut.x + (cut.width - qrSide) / 2, y: qrTop, width: qrSide, height: qrSide };
  const code = { x, y: qr.y + qrSide, width: innerWidth, height: codeHeight, fontSize: CARD_FONT_SIZES.code };
  return { cut, name, details, qr, code };
}

/** Module size and the symbol's top-left corner for a QR code of `moduleCount` modules in `qr`. */
export function qrModuleGrid(qr: Box, moduleCount: number): { moduleSize: number; x: number; y: number } {
  const moduleSize = qr.width / (moduleCount + 2 * QR_QUIET_ZONE_MODULES);
  return { moduleSize, x: qr.x + QR_QUIET_ZONE_MODULES * moduleSize, y: qr.y + QR_QUIET_ZONE_MODULES * moduleSize };
}

/**
 * The line under the name: the shooting day, where known. No employee ID: the card is seen by
 * everyone at the shoot, and the employee ID is a way into the person's photos where the gallery
 * allows it (docs/photos.md#the-participants-photos).
 */
export function cardDetailsLine(card: CameraCard): string {
  return card.day ?? '';
}

/**
 * Cards in the order a photographer hands them out: by shooting day (the order of `dayOrder`,
 * persons without a day last), then by name.
 */
export function sortCameraCards<T extends { name: string; shootingDayId: string | null }>(
  persons: readonly T[],
  dayOrder: readonly string[],
): T[] {
  const rank = (person: T) => {
    const position = person.shootingDayId === null ? -1 : dayOrder.indexOf(person.shootingDayId);
    return position < 0 ? dayOrder.length : position;
  };
  return [...persons].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }));
}

/*
 * The PDF's standard fonts (Helvetica) only have the Windows-1252 ("WinAnsi") characters, and
 * embedding a font file would tie the tool to a font installed on one machine. So text is
 * reduced to that set: accented letters outside it lose the accent (ą → a), a few Latin letters
 * without a decomposition are spelled out (ł → l), and anything else (Cyrillic, Greek, CJK,
 * emoji) prints as "?". The code and employee ID are ASCII; only names can be affected, and the
 * command reports which cards changed.
 */
const WIN_ANSI_EXTRAS = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';
const LATIN_WITHOUT_DECOMPOSITION: Record<string, string> = {
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Ħ: 'H',
  ħ: 'h',
  ı: 'i',
  Ŀ: 'L',
  ŀ: 'l',
  Ŋ: 'N',
  ŋ: 'n',
  Ŧ: 'T',
  ŧ: 't',
  ĸ: 'k',
  ſ: 's',
  ẞ: 'SS',
  Ə: 'E',
  ə: 'e',
  Ĳ: 'IJ',
  ĳ: 'ij',
  ŉ: "'n",
};
const COMBINING_MARKS = /[\u0300-\u036f]/g;

function isWinAnsi(character: string): boolean {
  const point = character.codePointAt(0)!;
  return (point >= 0x20 && point <= 0x7e) || (point >= 0xa0 && point <= 0xff) || WIN_ANSI_EXTRAS.includes(character);
}

/** `text` in characters the standard PDF fonts have, and whether that changed it. */
export function toStandardFontText(text: string): { text: string; changed: boolean } {
  const normalized = text.normalize('NFC');
  let result = '';
  for (const character of normalized) {
    if (isWinAnsi(character)) {
      result += character;
      continue;
    }
    const stripped = character.normalize('NFKD').replace(COMBINING_MARKS, '');
    const spelled = LATIN_WITHOUT_DECOMPOSITION[character];
    if (stripped !== '' && [...stripped].every(isWinAnsi)) result += stripped;
    else if (spelled !== undefined) result += spelled;
    else result += /\s/.test(character) ? ' ' : '?';
  }
  return { text: result, changed: result !== normalized };
}
