import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import {
  type CameraCard,
  type CardPaper,
  type CardPlacement,
  type TextSlot,
  cardDetailsLine,
  layoutCameraCards,
  qrModuleGrid,
  toStandardFontText,
} from '#lib/photos/cards/rules/camera-card-layout';

/** A rendered card sheet. */
export interface CameraCardPdf {
  bytes: Buffer;
  pageCount: number;
  /** Indexes (into the cards given) of the cards whose text had to be reduced to the standard fonts' characters. */
  alteredCards: number[];
}

/** Smallest size a long name is shrunk to before it is cut short with an ellipsis. */
const MINIMUM_NAME_FONT_SIZE = 9;
const CUT_LINE_GREY = '#9a9a9a';

/**
 * Draws camera cards (lib/photos/cards/rules/camera-card-layout.ts) as a PDF with pdfkit: text in the
 * standard Helvetica fonts, and each QR code as vector squares from `QRCode.create`, so it stays
 * sharp at any printer resolution. The QR code's text is exactly the access code.
 */
export async function renderCameraCardsPdf(cards: readonly CameraCard[], paper: CardPaper): Promise<CameraCardPdf> {
  if (cards.length === 0) throw new Error('A card sheet needs at least one card');
  const sheet = layoutCameraCards(paper, cards.length);
  const document = new PDFDocument({
    size: [sheet.pageSize.width, sheet.pageSize.height],
    margin: 0,
    autoFirstPage: false,
    info: { Title: 'Camera cards', Creator: 'groupshoot-api' },
  });
  const finished = collectBytes(document);
  const alteredCards: number[] = [];
  let index = 0;
  for (const page of sheet.pages) {
    document.addPage({ size: [sheet.pageSize.width, sheet.pageSize.height], margin: 0 });
    for (const placement of page) {
      if (drawCard(document, cards[index]!, placement)) alteredCards.push(index);
      index += 1;
    }
  }
  document.end();
  return { bytes: await finished, pageCount: sheet.pages.length, alteredCards };
}

/** Draws one card; true when its text had to be changed for the standard fonts. */
function drawCard(document: PDFKit.PDFDocument, card: CameraCard, placement: CardPlacement): boolean {
  const { cut } = placement;
  document
    .save()
    .lineWidth(0.5)
    .dash(4, { space: 3 })
    .strokeColor(CUT_LINE_GREY)
    .rect(cut.x, cut.y, cut.width, cut.height)
    .stroke()
    .restore();
  const name = toStandardFontText(card.name);
  const details = toStandardFontText(cardDetailsLine(card));
  document.fillColor('black');
  drawFittedText(document, name.text, placement.name, 'Helvetica-Bold');
  drawFittedText(document, details.text, placement.details, 'Helvetica');
  drawQrCode(document, card.code, placement.qr);
  document.font('Helvetica-Bold').fontSize(placement.code.fontSize);
  document.text(card.code, placement.code.x, placement.code.y, {
    width: placement.code.width,
    align: 'center',
    lineBreak: false,
  });
  return name.changed || details.changed;
}

/** One centred line: shrunk down to MINIMUM_NAME_FONT_SIZE to fit, then cut with an ellipsis. */
function drawFittedText(document: PDFKit.PDFDocument, text: string, slot: TextSlot, font: string): void {
  document.font(font);
  let fontSize = slot.fontSize;
  document.fontSize(fontSize);
  while (fontSize > MINIMUM_NAME_FONT_SIZE && document.widthOfString(text) > slot.width) {
    fontSize -= 0.5;
    document.fontSize(fontSize);
  }
  let shown = text;
  while (shown.length > 1 && document.widthOfString(shown) > slot.width) shown = `${shown.slice(0, -2)}…`;
  // Smaller type sits lower, so lines of different sizes share a baseline area.
  const top = slot.y + (slot.fontSize - fontSize);
  document.text(shown, slot.x, top, { width: slot.width, align: 'center', lineBreak: false });
}

/** The symbol as one path of dark squares, filled once, so adjacent modules leave no hairline seams. */
function drawQrCode(document: PDFKit.PDFDocument, code: string, qr: CardPlacement['qr']): void {
  // Level H costs nothing here (4 alphanumeric characters fit version 1 at every level) and
  // survives a thumb over a corner or glare on a glossy card.
  const { modules } = QRCode.create(code, { errorCorrectionLevel: 'H' });
  const grid = qrModuleGrid(qr, modules.size);
  for (let row = 0; row < modules.size; row += 1) {
    let column = 0;
    while (column < modules.size) {
      if (!modules.get(row, column)) {
        column += 1;
        continue;
      }
      const start = column;
      while (column < modules.size && modules.get(row, column)) column += 1;
      document.rect(
        grid.x + start * grid.moduleSize,
        grid.y + row * grid.moduleSize,
        (column - start) * grid.moduleSize,
        grid.moduleSize,
      );
    }
  }
  document.fillColor('black').fill('nonzero');
}

function collectBytes(document: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    document.on('data', (chunk: Buffer) => chunks.push(chunk));
    document.on('end', () => resolve(Buffer.concat(chunks)));
    document.on('error', reject);
  });
}
