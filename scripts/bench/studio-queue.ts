import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';

/**
 * The studio console's review queue of a large shoot (docs/studio-console.md), drawn in Debian's
 * Chromium at desktop size: from navigation until every thumbnail of the first screen is drawn.
 * Side by side in one run: the console with thumbnails made on this view (the first view ever),
 * stored in the bucket (a new start of the console), and in its memory (the same console again),
 * against the same thumbnails as static files in a plain page of the same grid.
 */
export interface StudioQueueSettings {
  photos: number;
  runs: number;
  /** Pixels of the shoot's photos, as a camera's JPEG (the console reads the whole file to make a thumbnail). */
  photoWidth: number;
  photoHeight: number;
}

export interface StudioQueueResult {
  photos: number;
  photoSize: string;
  runs: number;
  /** Thumbnails within the first screen (1440×900). */
  firstScreenImages: number;
  /** Medians, milliseconds from navigation until the first screen's thumbnails are drawn. */
  madeOnViewMs: number;
  storedMs: number;
  inMemoryMs: number;
  staticFilesMs: number;
  /** The console, its thumbnails stored, against static files. */
  storedRatio: number;
  inMemoryRatio: number;
}

const VIEWPORT = { width: 1440, height: 900 };
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Needs the local services (TABLE_NAME, MEDIA_BUCKET, S3_ENDPOINT): seeds a tenant with a shoot of `photos` unassigned photos. */
export async function measureStudioQueue(settings: StudioQueueSettings): Promise<StudioQueueResult> {
  const { chromium } = await import('playwright-core');
  const { startStudio } = await import('../studio/studio-server');
  const { listObjectVersions, deleteObjectVersions } = await import('#lib/platform/media-bucket');
  const { thumbnailPrefix } = await import('#lib/platform/media-keys');
  const shoot = await seedQueue(settings);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const sides = {
    madeOnView: [] as number[],
    stored: [] as number[],
    inMemory: [] as number[],
    staticFiles: [] as number[],
  };
  let firstScreenImages = 0;
  try {
    for (let run = 0; run < settings.runs; run += 1) {
      await deleteObjectVersions(await listObjectVersions(thumbnailPrefix(shoot.inboxPrefix)));
      const fresh = await startStudio({ tenant: shoot.tenantSlug });
      try {
        const made = await firstScreen(browser, `${fresh.url}#/review/${shoot.token}`);
        firstScreenImages = made.images;
        sides.madeOnView.push(made.milliseconds);
      } finally {
        await fresh.close();
      }
      const restarted = await startStudio({ tenant: shoot.tenantSlug });
      try {
        sides.stored.push((await firstScreen(browser, `${restarted.url}#/review/${shoot.token}`)).milliseconds);
        sides.inMemory.push((await firstScreen(browser, `${restarted.url}#/review/${shoot.token}`)).milliseconds);
      } finally {
        await restarted.close();
      }
      const staticSite = await serveStaticGrid(await storedThumbnails(shoot.inboxPrefix));
      try {
        sides.staticFiles.push((await firstScreen(browser, staticSite.url)).milliseconds);
      } finally {
        await staticSite.close();
      }
    }
  } finally {
    await browser.close();
  }
  const [madeOnViewMs, storedMs, inMemoryMs, staticFilesMs] = [
    sides.madeOnView,
    sides.stored,
    sides.inMemory,
    sides.staticFiles,
  ].map((values) => Math.round(median(values)));
  return {
    photos: settings.photos,
    photoSize: `${settings.photoWidth}×${settings.photoHeight}`,
    runs: settings.runs,
    firstScreenImages,
    madeOnViewMs: madeOnViewMs!,
    storedMs: storedMs!,
    inMemoryMs: inMemoryMs!,
    staticFilesMs: staticFilesMs!,
    storedRatio: Number((storedMs! / staticFilesMs!).toFixed(2)),
    inMemoryRatio: Number((inMemoryMs! / staticFilesMs!).toFixed(2)),
  };
}

/** A tenant with a group-shoot gallery whose inbox holds `photos` photos no card governs, each with its image in the bucket. */
async function seedQueue(settings: StudioQueueSettings) {
  const sharp = (await import('sharp')).default;
  const { createTenant } = await import('#lib/tenants/store/tenants');
  const { createBenchGallery } = await import('./bench-api');
  const { inboxObjectKey, inboxPrefix, photoIdOf } = await import('#lib/platform/media-keys');
  const { putMediaObject } = await import('#lib/platform/media-bucket');
  const { placeShootPhoto } = await import('#lib/photos/place-shoot-photo');
  const tenantSlug = `studio-bench-${Date.now().toString(36)}`;
  const tenant = await createTenant({ slug: tenantSlug, name: 'Studio bench', plan: 'creator' });
  const gallery = await createBenchGallery(tenant.tenantId, 'A large shoot');
  const scope = { tenantId: tenant.tenantId, token: gallery.token };
  // One camera-sized image with detail (noise compresses like a photo, not like a flat colour), under every key.
  const { width, height } = { width: settings.photoWidth, height: settings.photoHeight };
  const image = await sharp({
    create: {
      width,
      height,
      channels: 3,
      background: { r: 120, g: 140, b: 160 },
      noise: { type: 'gaussian', mean: 128, sigma: 12 },
    },
  })
    .jpeg({ quality: 85 })
    .toBuffer();
  const place = async (index: number) => {
    const path = `camera-a/IMG_${String(index + 1).padStart(4, '0')}.JPG`;
    const objectKey = inboxObjectKey({ ...scope, path });
    await putMediaObject(objectKey, image, 'image/jpeg');
    const capturedAt = new Date(Date.UTC(2026, 10, 20, 9, 0, 0) + index * 1_000).toISOString();
    const facts = {
      photoId: photoIdOf(objectKey),
      objectKey,
      path,
      fileName: path.split('/')[1]!,
      camera: 'camera-a',
      capturedAt,
      width,
      height,
      uploadedAt: capturedAt,
    };
    await placeShootPhoto(scope, facts, { kind: 'photo' });
  };
  for (let start = 0; start < settings.photos; start += 8) {
    await Promise.all(
      Array.from({ length: Math.min(8, settings.photos - start) }, (_, offset) => place(start + offset)),
    );
  }
  return { tenantSlug, token: gallery.token, inboxPrefix: inboxPrefix(scope.tenantId, scope.token) };
}

/** What the first-screen check reads of the page. */
interface BrowserWindow {
  innerHeight: number;
  document: {
    images: ArrayLike<{ complete: boolean; naturalWidth: number; getBoundingClientRect(): { top: number } }>;
  };
}

/** Opens `url` at desktop size in a new context (no cache), and waits until every image within the first screen is drawn. */
async function firstScreen(browser: Browser, url: string): Promise<{ milliseconds: number; images: number }> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    await page.goto(url);
    // A function, not a string: the console's Content-Security-Policy refuses the eval a string needs.
    const drawn = await page.waitForFunction(
      () => {
        // Runs in the page; typed here by hand, as this project compiles without the DOM's types.
        const { document, innerHeight } = globalThis as unknown as BrowserWindow;
        const inView = Array.from(document.images).filter((image) => image.getBoundingClientRect().top < innerHeight);
        if (inView.length === 0 || !inView.every((image) => image.complete && image.naturalWidth > 0)) return false;
        return { milliseconds: performance.now(), images: inView.length };
      },
      undefined,
      { polling: 'raf', timeout: 120_000 },
    );
    return (await drawn.jsonValue()) as { milliseconds: number; images: number };
  } finally {
    await context.close();
  }
}

/** The thumbnails the console stored for the inbox, by file name, in the queue's order. */
async function storedThumbnails(inboxPrefix: string): Promise<Buffer[]> {
  const { findMediaObject, listObjectVersions } = await import('#lib/platform/media-bucket');
  const { thumbnailPrefix } = await import('#lib/platform/media-keys');
  const keys = [
    ...new Set((await listObjectVersions(thumbnailPrefix(inboxPrefix))).map((version) => version.key)),
  ].sort();
  return Promise.all(keys.map(async (key) => Buffer.from((await findMediaObject(key))!.bytes)));
}

/**
 * The baseline: a page of the same grid of thumbnails (lazy images of the console's size, in its
 * CSS grid), served with the images from memory by Node's HTTP server, the least a server can do.
 */
async function serveStaticGrid(thumbnails: Buffer[]): Promise<{ url: string; close: () => Promise<void> }> {
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Static grid</title>
<style>body{font:15px/1.4 system-ui,sans-serif;margin:0 1.5rem}.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(230px,1fr));gap:.8rem}
img{display:block;width:100%;aspect-ratio:3/2;object-fit:contain;background:#eee}</style></head>
<body><h2>Review</h2><div class="grid">${thumbnails.map((_, index) => `<img src="t/${index}.jpg" alt="" loading="lazy" width="320" height="213">`).join('')}</div></body></html>`;
  const server = createServer((request, response) => {
    const image = /^\/t\/(\d+)\.jpg$/.exec(request.url ?? '');
    if (request.url === '/') response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page);
    else if (image && thumbnails[Number(image[1])])
      response.writeHead(200, { 'Content-Type': 'image/jpeg' }).end(thumbnails[Number(image[1])]);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function formatStudioQueue(result: StudioQueueResult): string {
  return [
    `### Studio console: the first screen of a review queue of ${result.photos} photos (${result.photoSize}), Chromium at 1440×900, median of ${result.runs}`,
    '',
    `${result.firstScreenImages} thumbnails on the first screen.`,
    '',
    '| Side | First screen drawn (ms) | Ratio to static files |',
    '|---|---:|---:|',
    `| console, thumbnails made on this view (first view ever) | ${result.madeOnViewMs} | ${(result.madeOnViewMs / result.staticFilesMs).toFixed(2)} |`,
    `| console, thumbnails stored in the bucket (a new start) | ${result.storedMs} | ${result.storedRatio} |`,
    `| console, thumbnails in its memory (the same start) | ${result.inMemoryMs} | ${result.inMemoryRatio} |`,
    `| the same thumbnails as static files | ${result.staticFilesMs} | 1.00 |`,
  ].join('\n');
}
