import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { useLocalApi } from '../support/local-api';
import { createCheckinStudio, createPayingStudio } from '../support/checkin-gallery';
import { useStripeEmulator } from '../support/stripe';
import { useSesEmulator } from '../support/ses';
import {
  PAGE_LANGUAGES,
  SCREENSHOTS,
  VIEWPORTS,
  axeViolations,
  checkinPageUrl,
  fillParticipant,
  fillSmallDay,
  pageBaseOf,
  useCheckinPageBrowser,
} from '../support/checkin-page-browser';

/**
 * axe-core (WCAG 2.0-2.2 A and AA, and its best practices) on every view of the check-in page,
 * at phone and desktop size, in every language: 0 violations of any impact. Each run walks
 * one participant through the views: the error page of a wrong link, the form, an empty submit,
 * a day that filled up, the 429 wait at the button, the free success, My photos and its link
 * request, and a paid check-in's recap.
 */
const api = useLocalApi({ checkinPage: true });
const stripe = useStripeEmulator(api);
useSesEmulator();
const { newWatchedPage } = useCheckinPageBrowser();
const LOCALES = { en: 'en-US', de: 'de-DE', fr: 'fr-FR' } as const;

const runs = Object.entries(VIEWPORTS).flatMap(([size, viewport]) =>
  PAGE_LANGUAGES.map((language) => [size, language, viewport] as const),
);

describe.each(runs)('check-in page accessibility on a %s in %s', (size, language, viewport) => {
  let page: Page;
  const findings: Record<string, string[]> = {};
  beforeEach(
    async () => void (page = await newWatchedPage({ viewport, locale: LOCALES[language], reducedMotion: 'reduce' })),
  );

  /** axe on the view as it is now, and its screenshot. */
  async function check(view: string) {
    findings[view] = await axeViolations(page);
    await page.screenshot({ path: join(SCREENSHOTS, `a11y-${view}-${language}-${size}.png`), fullPage: true });
  }

  it('has no axe violation on any view', async () => {
    // Prepare
    const studio = await createCheckinStudio({ photoAccess: { codeAndEmail: true, codeAndEmployeeId: false } });
    const paying = await createPayingStudio();
    // Act: the error page of a wrong link
    await page.goto(`${pageBaseOf(api.url)}/checkin/?tenant=${studio.slug}&token=nosuchgallery234`);
    await page.waitForSelector('#status:not(:empty)');
    await check('error-page');
    // ...the form, and an empty submit
    await page.goto(checkinPageUrl(api.url, studio));
    await page.waitForSelector('#checkin:not([hidden])');
    await check('form');
    await page.click('#submit');
    await page.waitForSelector('#name-error:not([hidden])');
    await check('errors');
    // ...a day that filled up meanwhile
    await fillParticipant(page, studio, `ada-${size}-${language}@example.com`);
    await page.check(`input[name="shootingDayId"][value="${studio.smallDay.id}"]`);
    await fillSmallDay(api, studio);
    await page.click('#submit');
    await page.waitForSelector(`label.full:has(input[value="${studio.smallDay.id}"])`);
    await check('day-full');
    // ...the wait at the button: the next check-in is answered 429 once, as the API does
    await page.check(`input[name="shootingDayId"][value="${studio.openDay.id}"]`);
    await page.route(
      '**/v1/group-shoot',
      (route) =>
        route.fulfill({
          status: 429,
          headers: { 'Retry-After': '1' },
          contentType: 'application/json',
          body: '{"ok":false,"error":"rate_limit_exceeded"}',
        }),
      { times: 1 },
    );
    await page.click('#submit');
    await page.waitForSelector('#submit-wait:not([hidden])');
    await check('wait');
    // ...the free success
    await page.waitForSelector('#done:not([hidden])', { timeout: 15_000 });
    await check('success');
    // ...My photos, and a link asked for
    await page.click('#done-photos-link');
    await page.waitForSelector('#my-photos:not([hidden])');
    await check('my-photos');
    await page.fill('#link-email', `ada-${size}-${language}@example.com`);
    await page.click('#link-submit');
    await page.waitForSelector('#link-sent:not([hidden])');
    await check('photo-link-sent');
    // ...and a paid check-in's recap after the return from checkout
    await page.goto(checkinPageUrl(api.url, paying));
    await page.waitForSelector('#checkin:not([hidden])');
    await fillParticipant(page, paying, `paid-${size}-${language}@example.com`);
    await page.check(`input[name="selectedPackageId"][value="${paying.paidPackage.id}"]`);
    await page.check('#termsAccepted');
    await page.click('#submit');
    await page.waitForURL(`${stripe.emulator.url}/pay/**`);
    await page.click('#pay');
    await page.waitForSelector('#done:not([hidden])');
    await check('paid-recap');
    // Assess
    expect(Object.keys(findings)).toHaveLength(9);
    expect(findings).toEqual(Object.fromEntries(Object.keys(findings).map((view) => [view, []])));
    expect(await page.getAttribute('html', 'lang')).toBe(language);
  });
});

describe.each(Object.entries(VIEWPORTS))('check-in page touch targets on a %s', (_size, viewport) => {
  let page: Page;
  beforeEach(async () => void (page = await newWatchedPage({ viewport })));

  it('gives every control of the form a touch target of at least 44 × 44 px (checkboxes and radios through their label row)', async () => {
    const studio = await createCheckinStudio();
    await page.goto(checkinPageUrl(api.url, studio));
    await page.waitForSelector('#checkin:not([hidden])');
    await page.check(`input[name="selectedPackageId"][value="${studio.paidPackage.id}"]`);
    const small = await page.$$eval(
      'main button:not([hidden]), main .view-link a, main input:not([type=checkbox]):not([type=radio]), main select, main textarea, main label.choice, #language, #terms-link',
      (nodes) =>
        nodes
          .filter((node) => (node as unknown as { offsetParent: unknown }).offsetParent !== null)
          .map((node) => [node.id || node.className || node.tagName, node.getBoundingClientRect()] as const)
          .filter(([, box]) => box.height < 44 || box.width < 44)
          .map(([name, box]) => `${name}: ${Math.round(box.width)}×${Math.round(box.height)}`),
    );
    expect(small).toEqual([]);
  });
});
