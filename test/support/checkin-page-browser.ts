import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContext, type BrowserContextOptions, type Page, chromium } from 'playwright-core';
import type { CheckinStudio } from './checkin-gallery';
import type { ApiAnswer, ApiCall } from './local-api';

/** Where the browser tests leave their screenshots (gitignored). */
export const SCREENSHOTS = join(__dirname, '..', '..', 'test-output', 'screenshots');
/** A phone (iPhone 12 to 15) and a desktop. */
export const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } };
export const PAGE_LANGUAGES = ['en', 'de', 'fr'] as const;

/**
 * Debian's Chromium for this test file, and the CSP watch: every page the file opens reports
 * what its Content-Security-Policy blocked, and each test fails on any report.
 */
export function useCheckinPageBrowser() {
  let browser: Browser | undefined;
  const cspViolations: string[] = [];
  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await chromium.launch({
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
  });
  afterAll(async () => {
    await browser?.close();
  });
  const contexts: BrowserContext[] = [];
  // Every flow runs under the page's CSP (infra/checkin-page-headers.ts): a test that made the page break it fails.
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
    expect(cspViolations.splice(0)).toEqual([]);
  });
  return {
    cspViolations,
    get browser(): Browser {
      if (!browser) throw new Error('browser not started');
      return browser;
    },
    /**
     * A new page, closed after the test, whose CSP violations go to cspViolations: Chromium's console line and the
     * `securitypolicyviolation` event, listened to by a Playwright init script (run by the browser
     * tool, not a script of the page, so the CSP does not apply to it). `locale` sets the
     * browser's languages (navigator.languages).
     */
    async newWatchedPage(options: BrowserContextOptions): Promise<Page> {
      if (!browser) throw new Error('browser not started');
      // A context of its own (axe-core's Playwright builder needs one), closed after the test.
      const context = await browser.newContext(options);
      contexts.push(context);
      const page = await context.newPage();
      page.on('console', (message) => {
        if (message.text().includes('Content Security Policy')) cspViolations.push(message.text().slice(0, 300));
      });
      await page.exposeFunction('reportCspViolation', (violation: string) => cspViolations.push(violation));
      await page.addInitScript(`document.addEventListener('securitypolicyviolation', (event) => {
        window.reportCspViolation(event.effectiveDirective + ' blocked ' + event.blockedURI + ' on ' + event.documentURI);
      });`);
      return page;
    },
  };
}

/** What these helpers need of useLocalApi's answer. */
type LocalApiCaller = { call(path: string, options?: ApiCall): Promise<ApiAnswer> };

/** The local server's origin, where it serves the page under /checkin/. */
export const pageBaseOf = (apiUrl: string) => apiUrl.replace(/\/v1$/, '');

export function checkinPageUrl(apiUrl: string, studio: CheckinStudio): string {
  return `${pageBaseOf(apiUrl)}/checkin/?tenant=${studio.slug}&token=${studio.token}`;
}

/** Name, email, the custom fields, a day with room, consent and face consent. */
export async function fillParticipant(page: Page, studio: CheckinStudio, email = 'ada@example.com') {
  await page.fill('#name', 'Ada Lovelace');
  await page.fill('#email', email);
  await page.selectOption(`[id="${studio.fieldKeys.size}"]`, 'm');
  await page.fill(`[id="${studio.fieldKeys.motto}"]`, 'Ship it');
  await page.check(`input[name="shootingDayId"][value="${studio.openDay.id}"]`);
  await page.check('#consentGiven');
  await page.check('#faceConsent');
}

/** Books the small day's two spots through the API, as two colleagues would. */
export async function fillSmallDay(api: LocalApiCaller, studio: CheckinStudio) {
  for (const name of ['Colleague One', 'Colleague Two']) {
    const booked = await api.call('/group-shoot', {
      method: 'POST',
      headers: studio.publicHeaders,
      body: studio.validBody({ name, shootingDayId: studio.smallDay.id }),
    });
    expect(booked.status).toBe(200);
  }
}

/** axe-core's findings on the page as it is now, as `rule (impact): targets` lines; empty when it found nothing. */
export async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  return results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  );
}

/** An element's text with white space (Intl's narrow and thin spaces too) as single plain spaces. */
export const textOf = async (page: Page, selector: string) =>
  ((await page.textContent(selector)) ?? '').replace(/\s+/g, ' ').trim();

/** The success view's recap, term and value in turn, white space as in textOf. */
export function recapOf(page: Page): Promise<string[]> {
  return page.$$eval('#recap dt, #recap dd', (nodes) =>
    nodes.map((node) => (node.textContent ?? '').replace(/\s+/g, ' ').trim()),
  );
}

/** The gallery's persons as the server-side API lists them. */
export async function personsOf(api: LocalApiCaller, studio: CheckinStudio) {
  return (await api.call(`/groupshoot/${studio.token}/persons`, { headers: studio.serverHeaders })).body.persons;
}

/** The id of the element that has the focus. */
export const focusedId = (page: Page) => page.evaluate('document.activeElement && document.activeElement.id');
