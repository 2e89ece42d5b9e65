import { gzipSync } from 'node:zlib';
import { median } from './statistics';
export type CheckinPageResult = Awaited<ReturnType<typeof measureCheckinPage>>;

/**
 * The check-in page at `pageUrl` in Lighthouse at its default mobile settings, in Debian's Chromium
 * (CHROME_PATH), `runs` times: the median scores and metrics, and each file it loads as served and
 * gzip-compressed as CloudFront sends it (docs/benchmarks/checkin-page.md).
 */
export async function measureCheckinPage({ pageUrl, runs }: { pageUrl: string; runs: number }) {
  // ES modules only: loaded as such from this CommonJS script.
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
  });
  const reports: NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'][] = [];
  try {
    // A run Lighthouse could not finish (on a loaded machine, NO_FCP: the page painted nothing in
    // its time) scores nothing: it is run again, at most twice in all, and never averaged in.
    const failures: string[] = [];
    while (reports.length < runs) {
      const result = await lighthouse(pageUrl, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices'],
      });
      if (!result) throw new Error('Lighthouse returned no result');
      if (!result.lhr.runtimeError) reports.push(result.lhr);
      else if (failures.push(`${result.lhr.runtimeError.code}: ${result.lhr.runtimeError.message}`) > 2)
        throw new Error(`Lighthouse could not finish its runs: ${failures.join('; ')}`);
    }
  } finally {
    chrome.kill();
  }
  const score = (category: string) =>
    median(reports.map((report) => Math.round((report.categories[category]?.score ?? 0) * 100)));
  const metric = (audit: string) => median(reports.map((report) => report.audits[audit]?.numericValue ?? NaN));
  const requests = reports[0]!.audits['network-requests']?.details as { items: { url: string }[] } | undefined;
  const files = await sizeFiles(
    (requests?.items ?? [])
      .map((item) => item.url)
      .filter((url) => url.startsWith(new URL(pageUrl).origin) && !url.includes('/v1/')),
  );
  return {
    url: pageUrl,
    runs,
    files,
    totalBytes: files.reduce((sum, file) => sum + file.bytes, 0),
    totalGzipBytes: files.reduce((sum, file) => sum + file.gzipBytes, 0),
    lighthouse: {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      firstContentfulPaintMs: Math.round(metric('first-contentful-paint')),
      largestContentfulPaintMs: Math.round(metric('largest-contentful-paint')),
      totalBlockingTimeMs: Math.round(metric('total-blocking-time')),
      cumulativeLayoutShift: Number(metric('cumulative-layout-shift').toFixed(3)),
      transferredBytes: Math.round(metric('total-byte-weight')),
      requests: requests?.items.length ?? 0,
    },
  };
}

async function sizeFiles(urls: string[]) {
  const files = [];
  for (const url of [...new Set(urls)]) {
    const body = Buffer.from(await (await fetch(url)).arrayBuffer());
    files.push({ path: new URL(url).pathname, bytes: body.length, gzipBytes: gzipSync(body, { level: 9 }).length });
  }
  return files;
}
