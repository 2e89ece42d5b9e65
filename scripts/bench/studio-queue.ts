import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium } from 'playwright-core';
import sharp from 'sharp';
import { deleteObjectVersions, findMediaObject, listObjectVersions, putMediaObject } from '#lib/platform/media-bucket';
import { inboxPrefix, thumbnailPrefix } from '#lib/platform/media-keys';
import { placeShootPhoto } from '#lib/photos/sorting/place-shoot-photo';
import { storeShootThumbnail } from '#lib/photos/sorting/adapters/shoot-thumbnails';
import { mapWithConcurrency } from '#lib/platform/concurrency';
import { startStudio } from '../studio/studio-server';
import { REVIEW_PAGE_SIZE } from '../studio/studio-api';
import { createBenchStudio, shootPhotoFacts } from './bench-api';
import { median, rounded } from './statistics';

export type StudioQueueResult = Awaited<ReturnType<typeof measureStudioQueue>>;

/**
 * The studio console's review queue of a large shoot in Chromium, each time in a new context:
 * from navigation until the first screen's thumbnails are drawn, medians of `runs`, with the
 * thumbnails stored at ingest (a new start: the first view), in memory, and made on this view
 * (photos sorted before ingest stored them), against the same as static files
 * (docs/benchmarks/studio-queue.md).
 */
export async function measureStudioQueue(settings: QueueSettings & { runs: number }) {
  const shoot = await seedQueue(settings);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  const [madeOnView, stored, inMemory, staticFiles]: [number[], number[], number[], number[]] = [[], [], [], []];
  let firstScreenImages = 0;
  const reviewOf = (studio: { url: string }) => `${studio.url}#/review/${shoot.token}`;
  try {
    for (let run = 0; run < settings.runs; run += 1) {
      const started = await startStudio({ tenant: shoot.tenantSlug });
      try {
        const first = await firstScreen(browser, reviewOf(started));
        firstScreenImages = first.images;
        stored.push(first.milliseconds);
        inMemory.push((await firstScreen(browser, reviewOf(started))).milliseconds);
      } finally {
        await started.close();
      }
      // A shoot sorted before thumbnails were made at ingest: the console makes them (and stores them for the next run).
      await deleteObjectVersions(await listObjectVersions(thumbnailPrefix(shoot.inboxPrefix)));
      const fresh = await startStudio({ tenant: shoot.tenantSlug });
      madeOnView.push((await firstScreen(browser, reviewOf(fresh)).finally(() => fresh.close())).milliseconds);
      const staticSite = await serveStaticGrid(shoot.inboxPrefix);
      staticFiles.push((await firstScreen(browser, staticSite.url).finally(staticSite.close)).milliseconds);
    }
  } finally {
    await browser.close();
  }
  const [madeOnViewMs, storedMs, inMemoryMs, staticFilesMs] = [madeOnView, stored, inMemory, staticFiles].map(
    (values) => Math.round(median(values)),
  ) as [number, number, number, number];
  return {
    photos: settings.photos,
    photoSize: `${settings.photoWidth}×${settings.photoHeight}`,
    runs: settings.runs,
    /** Thumbnails within the first screen. */
    firstScreenImages,
    madeOnViewMs,
    storedMs,
    inMemoryMs,
    staticFilesMs,
    /** The console against static files: thumbnails made on view, stored, in memory. */
    madeOnViewRatio: rounded(madeOnViewMs / staticFilesMs),
    storedRatio: rounded(storedMs / staticFilesMs),
    inMemoryRatio: rounded(inMemoryMs / staticFilesMs),
  };
}

interface QueueSettings {
  photos: number;
  /** The first photos that have an image (and the thumbnail ingest stores): more than the console's first page. */
  photosWithImages: number;
  /** Pixels of the shoot's photos, as a camera's JPEG (the console reads the whole file to make a thumbnail). */
  photoWidth: number;
  photoHeight: number;
}

/** A tenant with a group-shoot gallery whose inbox holds `photos` photos no card governs, placed as ingest places them. */
async function seedQueue(settings: QueueSettings) {
  const { tenantId, slug: tenantSlug, token } = await createBenchStudio('studio');
  const scope = { tenantId, token };
  // One camera-sized image with detail (noise compresses like a photo, not like a flat colour), under every key.
  const [width, height] = [settings.photoWidth, settings.photoHeight];
  const noise = { type: 'gaussian' as const, mean: 128, sigma: 12 };
  const image = await sharp({ create: { width, height, channels: 3, background: { r: 120, g: 140, b: 160 }, noise } })
    .jpeg({ quality: 85 })
    .toBuffer();
  const place = async (index: number) => {
    const capturedAt = new Date(Date.UTC(2026, 10, 20, 9, 0, 0) + index * 1_000).toISOString();
    const path = `camera-a/IMG_${String(index + 1).padStart(4, '0')}.JPG`;
    const facts = shootPhotoFacts(scope, path, capturedAt, { width, height });
    if (index < settings.photosWithImages) {
      await putMediaObject(facts.objectKey, image, 'image/jpeg');
      await storeShootThumbnail(facts.objectKey, image);
    }
    await placeShootPhoto(scope, facts, { kind: 'photo' });
  };
  await mapWithConcurrency([...Array(settings.photos).keys()], 8, place);
  return { tenantSlug, token, inboxPrefix: inboxPrefix(tenantId, token) };
}

/** What the first-screen check reads of the page (this project compiles without the DOM's types). */
interface BrowserWindow {
  innerHeight: number;
  document: {
    images: ArrayLike<{ complete: boolean; naturalWidth: number; getBoundingClientRect(): { top: number } }>;
  };
}

/** Opens `url` in a new context, and waits until every image within the first screen is drawn. */
async function firstScreen(browser: Browser, url: string): Promise<{ milliseconds: number; images: number }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(url);
    // A function, not a string: the console's Content-Security-Policy refuses the eval a string needs.
    const drawn = await page.waitForFunction(
      () => {
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

/**
 * The baseline: a page of the same grid of lazy images, in the console's size and CSS grid, with
 * the thumbnails the console stored served from memory by Node's HTTP server, the least a server can do.
 */
async function serveStaticGrid(prefix: string): Promise<{ url: string; close: () => Promise<void> }> {
  // As many as the console's first page shows.
  const keys = [...new Set((await listObjectVersions(thumbnailPrefix(prefix))).map((version) => version.key))]
    .sort()
    .slice(0, REVIEW_PAGE_SIZE);
  const thumbnails = await Promise.all(keys.map(async (key) => Buffer.from((await findMediaObject(key))!.bytes)));
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Static grid</title>
<style>body{font:15px/1.4 system-ui,sans-serif;margin:0 1.5rem}.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(230px,1fr));gap:.8rem}
img{display:block;width:100%;aspect-ratio:3/2;object-fit:contain;background:#eee}</style></head>
<body><h2>Review</h2><div class="grid">${thumbnails.map((_, index) => `<img src="t/${index}.jpg" alt="" loading="lazy" width="320" height="213">`).join('')}</div></body></html>`;
  const server = createServer((request, response) => {
    const image = thumbnails[Number(/^\/t\/(\d+)\.jpg$/.exec(request.url ?? '')?.[1] ?? NaN)];
    if (request.url === '/') response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page);
    else if (image) response.writeHead(200, { 'Content-Type': 'image/jpeg' }).end(image);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
