import { readFile } from 'node:fs/promises';
import QRCode from 'qrcode';
import type * as ZxingWriter from 'zxing-wasm/writer';
import sharp, { type Exif } from 'sharp';
import { mapWithConcurrency } from '#lib/platform/concurrency';

/**
 * Generated shoot photos, for the photo sorting tests and scripts/bench/photo-ingest.ts: no
 * binary fixtures. Portraits are a gradient, a few soft shapes (a head, shoulders, a lamp) and
 * grain, and never show a code; a card photo is a portrait with a white card held into it,
 * showing a QR code (as the camera cards of lib/photos/cards/adapters/camera-card-pdf.ts: error correction H,
 * a quiet zone of 4 modules) or a Data Matrix, turned and blurred as asked. EXIF carries the
 * capture time and the camera, as a camera writes them.
 */

/** A camera as EXIF names it. */
export interface SyntheticCamera {
  make: string;
  model: string;
  serial?: string;
}

export interface ShotOptions {
  width: number;
  height: number;
  /** Varies colours, shapes and grain. */
  seed?: number;
  /** ISO 8601 with milliseconds (`2026-11-20T10:00:01.120Z`), written as DateTimeOriginal and SubSecTimeOriginal. */
  capturedAt?: string;
  /** Digits of SubSecTimeOriginal: cameras write 2 (`12`) or 3 (`120`). */
  subSecondDigits?: 2 | 3;
  camera?: SyntheticCamera;
  /** EXIF Orientation (1 upright, 6 turned 90° clockwise to show, …); the pixels stay as the sensor saw them. */
  orientation?: number;
  /** JPEG quality, 90 unless given. */
  quality?: number;
}

export interface CardOptions extends ShotOptions {
  /** The code's text: an access code, or anything for a card of no person. */
  text: string;
  symbology?: 'QRCode' | 'DataMatrix';
  /** The code's side (without its quiet zone) as a fraction of the photo's short side. */
  size: number;
  /** Degrees, clockwise. */
  angle?: number;
  /** Gaussian blur of the card, its sigma in modules of the code (0.3 is soft, 0.6 very soft); none for 0. */
  blur?: number;
  /** Where the card's centre is, as fractions of width and height; (0.62, 0.55) unless given. */
  at?: { x: number; y: number };
}

/** A portrait: nothing in it that could be read as a code. */
export async function portraitJpeg(options: ShotOptions): Promise<Buffer> {
  const pixels = await backdrop(options);
  addGrain(pixels, options.seed ?? 1);
  return encode(pixels, options);
}

/** A photo with a camera card in it. */
export async function cardJpeg(options: CardOptions): Promise<Buffer> {
  const { width, height } = options;
  const [pixels, card] = await Promise.all([backdrop(options), cardOverlay(options)]);
  const at = options.at ?? { x: 0.62, y: 0.55 };
  drawOver(
    pixels,
    width,
    height,
    card,
    Math.round(at.x * width - card.side / 2),
    Math.round(at.y * height - card.side / 2),
  );
  addGrain(pixels, options.seed ?? 1);
  return encode(pixels, options);
}

/**
 * The scene as raw RGB: a wall, a few lights and a person's head and shoulders, drawn by librsvg
 * at a quarter of the size and enlarged without smoothing (drawn at full size, a 24 MP photo
 * would take seconds; the grain hides the steps).
 */
async function backdrop({ width, height, seed = 1 }: ShotOptions): Promise<Buffer> {
  const random = seededRandom(seed);
  const hue = Math.floor(random() * 360);
  const short = Math.min(width, height);
  const lights = Array.from({ length: 4 }, () => {
    const [cx, cy, r] = [random() * width, random() * height, (0.05 + random() * 0.15) * short].map(Math.round);
    return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="hsl(${Math.floor(random() * 360)},40%,${30 + Math.floor(random() * 40)}%)" fill-opacity="0.5"/>`;
  }).join('');
  const headX = (0.3 + random() * 0.25) * width;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.ceil(width / 4)}" height="${Math.ceil(height / 4)}" viewBox="0 0 ${width} ${height}">
  <defs>
    <linearGradient id="wall" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${hue},25%,75%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360},30%,35%)"/>
    </linearGradient>
  </defs>
  <rect width="100%" height="100%" fill="url(#wall)"/>${lights}
  <ellipse cx="${headX}" cy="${height * 0.4}" rx="${short * 0.14}" ry="${short * 0.19}" fill="hsl(25,45%,62%)"/>
  <ellipse cx="${headX}" cy="${height * 1.02}" rx="${short * 0.42}" ry="${short * 0.45}" fill="hsl(${(hue + 180) % 360},35%,28%)"/>
</svg>`;
  return sharp(Buffer.from(svg))
    .removeAlpha()
    .resize(width, height, { fit: 'fill', kernel: 'nearest' })
    .raw()
    .toBuffer();
}

const GRAIN_LENGTH = 1_048_573; // a prime, so the grain repeats in no row or column pattern

/** Sensor grain, ±12 levels; it also gives the JPEGs a camera's size (a 24 MP photo about 5 MB at quality 90). */
const grain = (() => {
  const random = seededRandom(17);
  return Int8Array.from({ length: GRAIN_LENGTH }, () => Math.floor(random() * 25) - 12);
})();

function addGrain(pixels: Buffer, seed: number): void {
  const offset = (seed * 7919) % GRAIN_LENGTH;
  for (let at = 0; at < pixels.length; at += 1) {
    const value = pixels[at]! + grain[(at + offset) % GRAIN_LENGTH]!;
    pixels[at] = value < 0 ? 0 : value > 255 ? 255 : value;
  }
}

/** Draws the RGBA `overlay` over the RGB `pixels` at (left, top), by its alpha. */
function drawOver(
  pixels: Buffer,
  width: number,
  height: number,
  overlay: { rgba: Buffer; side: number },
  left: number,
  top: number,
): void {
  for (let y = Math.max(0, -top); y < overlay.side && top + y < height; y += 1) {
    for (let x = Math.max(0, -left); x < overlay.side && left + x < width; x += 1) {
      const from = (y * overlay.side + x) * 4;
      const alpha = overlay.rgba[from + 3]! / 255;
      if (alpha === 0) continue;
      const to = ((top + y) * width + left + x) * 3;
      for (let channel = 0; channel < 3; channel += 1) {
        pixels[to + channel] = Math.round(overlay.rgba[from + channel]! * alpha + pixels[to + channel]! * (1 - alpha));
      }
    }
  }
}

/** The card, turned and blurred, as raw RGBA on a transparent square it fits in at any angle. */
async function cardOverlay(options: CardOptions): Promise<{ rgba: Buffer; side: number }> {
  const grid = await moduleGrid(options.text, options.symbology ?? 'QRCode');
  const codeSide = options.size * Math.min(options.width, options.height);
  const module = codeSide / grid.columns;
  // A printed card: the code with its quiet zone of 4 modules, and a margin below for the name.
  const cardWidth = codeSide + 8 * module;
  const cardHeight = cardWidth * 1.35;
  const side = Math.ceil(Math.hypot(cardWidth, cardHeight)) + 4;
  const cardLeft = (side - cardWidth) / 2;
  const cardTop = (side - cardHeight) / 2;
  const codeLeft = cardLeft + 4 * module;
  const codeTop = cardTop + 4 * module;
  let path = '';
  for (let row = 0; row < grid.rows; row += 1) {
    for (let column = 0; column < grid.columns; column += 1) {
      if (grid.dark(row, column))
        path += `M${(codeLeft + column * module).toFixed(2)} ${(codeTop + row * module).toFixed(2)}h${module.toFixed(3)}v${module.toFixed(3)}h-${module.toFixed(3)}z`;
    }
  }
  const nameBar = `<rect x="${codeLeft}" y="${cardTop + cardWidth + module}" width="${codeSide * 0.7}" height="${module * 1.5}" fill="#444"/>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}">
  <g transform="rotate(${options.angle ?? 0} ${side / 2} ${side / 2})">
    <rect x="${cardLeft}" y="${cardTop}" width="${cardWidth}" height="${cardHeight}" rx="${module}" fill="#f4f4f0"/>
    <path d="${path}" fill="#111"/>${nameBar}
  </g>
</svg>`;
  let card = sharp(Buffer.from(svg)).ensureAlpha();
  const sigma = (options.blur ?? 0) * module;
  if (sigma >= 0.3) card = card.blur(sigma);
  return { rgba: await card.raw().toBuffer(), side };
}

interface ModuleGrid {
  rows: number;
  columns: number;
  dark(row: number, column: number): boolean;
}

async function moduleGrid(text: string, symbology: 'QRCode' | 'DataMatrix'): Promise<ModuleGrid> {
  if (symbology === 'QRCode') {
    const { modules } = QRCode.create(text, { errorCorrectionLevel: 'H' });
    return { rows: modules.size, columns: modules.size, dark: (row, column) => modules.get(row, column) === 1 };
  }
  const { writeBarcode } = await loadWriter();
  const { symbol, error } = await writeBarcode(text, { format: 'DataMatrix' });
  if (error) throw new Error(`ZXing wrote no Data Matrix: ${error}`);
  // One byte per module, 0 for dark (ZXing's bitmap of the symbol, without quiet zone).
  return {
    rows: symbol.height,
    columns: symbol.width,
    dark: (row, column) => symbol.data[row * symbol.width + column] === 0,
  };
}

let writer: Promise<typeof ZxingWriter> | undefined;

/** ZXing's writer, with its WebAssembly from the installed package (never from its default CDN). */
function loadWriter(): Promise<typeof ZxingWriter> {
  writer ??= (async () => {
    const zxing = await import('zxing-wasm/writer');
    const wasm = await readFile(require.resolve('zxing-wasm/writer/zxing_writer.wasm'));
    zxing.prepareZXingModule({
      overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) },
    });
    return zxing;
  })();
  return writer;
}

async function encode(pixels: Buffer, options: ShotOptions): Promise<Buffer> {
  let image = sharp(pixels, { raw: { width: options.width, height: options.height, channels: 3 } }).jpeg({
    quality: options.quality ?? 90,
  });
  const exif = exifOf(options);
  if (exif) image = image.withExif(exif);
  if (options.orientation) image = image.withMetadata({ orientation: options.orientation });
  return image.toBuffer();
}

/** EXIF as sharp writes it: IFD0 holds Make and Model, IFD2 (the Exif IFD) the rest. */
function exifOf({ capturedAt, subSecondDigits = 3, camera }: ShotOptions): Exif | undefined {
  if (!capturedAt && !camera) return undefined;
  const image: Record<string, string> = {};
  const photo: Record<string, string> = {};
  if (camera) {
    image.Make = camera.make;
    image.Model = camera.model;
    if (camera.serial) photo.BodySerialNumber = camera.serial;
  }
  if (capturedAt) {
    const [, date, time, milliseconds] = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})\.(\d{3})Z$/.exec(capturedAt) ?? [];
    if (!date || !time || !milliseconds) throw new Error(`capturedAt needs milliseconds and Z: ${capturedAt}`);
    photo.DateTimeOriginal = `${date.replace(/-/g, ':')} ${time}`;
    photo.SubSecTimeOriginal = milliseconds.slice(0, subSecondDigits);
  }
  return { IFD0: image, IFD2: photo };
}

/** mulberry32: the same seed gives the same photo. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** How a card is held in front of a camera. */
export interface CardVariant {
  /** The code's side as a fraction of the photo's short side. */
  size: number;
  angle: number;
  /** Sigma in modules (CardOptions.blur). */
  blur: number;
}

/** Cards of a generated shoot, in turn: small and large, straight and turned, sharp and soft. */
export const SHOOT_CARD_VARIANTS: readonly CardVariant[] = [
  { size: 0.12, angle: 0, blur: 0 },
  { size: 0.08, angle: 15, blur: 0.2 },
  { size: 0.2, angle: 45, blur: 0.4 },
  { size: 0.1, angle: 90, blur: 0 },
  { size: 0.3, angle: -20, blur: 0.3 },
];

export interface ShootPlan {
  /** The persons' access codes, in the order they come to the cameras; person i goes to camera i % cameras. */
  codes: readonly string[];
  /** 2 unless given. */
  cameras?: number;
  /** Portraits after each card, 3 unless given. */
  photosPerPerson?: number;
  /** 1600 × 1067 unless given. */
  width?: number;
  height?: number;
  /** Portraits each camera takes before its first card (test shots), 2 unless given. */
  portraitsBeforeFirstCard?: number;
  /**
   * The text of a card of no person, shot by the first camera just before its second person's
   * card (so no portrait follows it); none for null. A code of the alphabet not in `codes` unless given.
   */
  unknownCode?: string | null;
  cardVariants?: readonly CardVariant[];
  /** The first camera's first capture time, `2026-11-20T09:00:00.000Z` unless given. */
  startAt?: string;
}

export interface SyntheticShootPhoto {
  /** A path in the gallery's inbox: `camera-<n>/IMG_<nnnn>.JPG`. */
  path: string;
  bytes: Buffer;
  /** The camera's identity, as readShootPhoto gives it. */
  camera: string;
  capturedAt: string;
  kind: 'card' | 'portrait';
  /** The card's text. */
  code?: string;
  /**
   * Whose photo it is: the code of the last person's card before it on its camera (a card
   * photo is its own person's), null before the camera's first card. A card of no person is no
   * card (docs: any other text is not a card), so it is a photo of the person before it.
   */
  expectedCode: string | null;
}

/** Milliseconds between two shots of a camera: several shots share a second, only SubSecTimeOriginal orders them. */
const SHOT_INTERVAL_MS = 650;

/**
 * A whole shoot, in capture order per camera (cameras one after the other). Each camera is a
 * Canon EOS R6 with its own serial number, so only the serial tells them apart. A 30-person,
 * 2-camera shoot of 1600 × 1067 photos takes about ten seconds.
 */
export async function makeShoot(plan: ShootPlan): Promise<SyntheticShootPhoto[]> {
  const { codes, cameras = 2, photosPerPerson = 3, width = 1600, height = 1067, portraitsBeforeFirstCard = 2 } = plan;
  const variants = plan.cardVariants ?? SHOOT_CARD_VARIANTS;
  const unknownCode = plan.unknownCode === undefined ? codeNotIn(codes) : plan.unknownCode;
  const startAt = Date.parse(plan.startAt ?? '2026-11-20T09:00:00.000Z');
  type Shot = Omit<SyntheticShootPhoto, 'bytes'> & { options: ShotOptions | CardOptions };
  const shots: Shot[] = [];
  let cardsShot = 0;
  for (let cameraIndex = 0; cameraIndex < cameras; cameraIndex += 1) {
    const camera: SyntheticCamera = { make: 'Canon', model: 'EOS R6', serial: `03100${cameraIndex + 1}` };
    let sequence = 0;
    let current: string | null = null;
    const shoot = (kind: 'card' | 'portrait', code?: string) => {
      sequence += 1;
      const capturedAt = new Date(startAt + cameraIndex * 137 + sequence * SHOT_INTERVAL_MS).toISOString();
      const seed = cameraIndex * 100_000 + sequence;
      const base: ShotOptions = { width, height, seed, capturedAt, camera };
      const variant = variants[cardsShot % variants.length]!;
      const options = kind === 'card' ? { ...base, text: code!, ...variant } : base;
      if (kind === 'card') cardsShot += 1;
      const path = `camera-${cameraIndex + 1}/IMG_${String(sequence).padStart(4, '0')}.JPG`;
      shots.push({
        path,
        camera: `${camera.make} ${camera.model} #${camera.serial}`,
        capturedAt,
        kind,
        code,
        expectedCode: current,
        options,
      });
    };
    for (let shot = 0; shot < portraitsBeforeFirstCard; shot += 1) shoot('portrait');
    const persons = codes.filter((_, index) => index % cameras === cameraIndex);
    for (const [index, code] of persons.entries()) {
      if (cameraIndex === 0 && index === 1 && unknownCode !== null) shoot('card', unknownCode);
      current = code;
      shoot('card', code);
      for (let shot = 0; shot < photosPerPerson; shot += 1) shoot('portrait');
    }
  }
  // Four at a time: the encoding runs on libuv's threads while the next photo's grain is drawn.
  return mapWithConcurrency(shots, 4, async ({ options, ...photo }): Promise<SyntheticShootPhoto> => {
    const bytes = photo.kind === 'card' ? await cardJpeg(options as CardOptions) : await portraitJpeg(options);
    return { ...photo, bytes };
  });
}

/** The first code of the alphabet's last letters that is no person's. */
function codeNotIn(codes: readonly string[]): string {
  const taken = new Set(codes);
  for (const letter of 'ZYXWVUTS') {
    const code = letter.repeat(4);
    if (!taken.has(code)) return code;
  }
  throw new Error('No free code among ZZZZ to SSSS');
}
