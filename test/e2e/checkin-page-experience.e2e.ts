import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { updateGallerySettings } from '#lib/galleries/store/galleries';
import { useLocalApi } from '../support/local-api';
import { type CheckinStudio, createCheckinStudio, createPayingStudio } from '../support/checkin-gallery';
import { useStripeEmulator } from '../support/stripe';
import { useSesEmulator } from '../support/ses';
import { EMAIL_MESSAGES } from '#lib/photos/notices/rules/email-messages';
import {
  SCREENSHOTS,
  VIEWPORTS,
  checkinPageUrl,
  fillParticipant,
  fillSmallDay,
  focusedId,
  pageBaseOf,
  personsOf as personsOfGallery,
  recapOf,
  textOf,
  useCheckinPageBrowser,
} from '../support/checkin-page-browser';

/**
 * The check-in page of issue 28: every error at once, a day that filled up refreshed, the page
 * in German and French, the studio's terms link and branding, and keyboard-only completion.
 */
const api = useLocalApi({ checkinPage: true });
const stripe = useStripeEmulator(api);
const ses = useSesEmulator();
const { newWatchedPage } = useCheckinPageBrowser();
const pageUrl = (studio: CheckinStudio) => checkinPageUrl(api.url, studio);

const personsOf = (studio: CheckinStudio) => personsOfGallery(api, studio);

describe.each(Object.entries(VIEWPORTS))('check-in page on a %s: errors and availability', (size, viewport) => {
  let page: Page;
  beforeEach(async () => void (page = await newWatchedPage({ viewport })));

  it('shows every error of an empty submit at once, each next to its field and linked to it, with focus on the first', async () => {
    // Prepare
    const studio = await createCheckinStudio({ selfieRequired: true });
    await page.goto(pageUrl(studio));
    await page.waitForSelector('#checkin:not([hidden])');
    // Act
    await page.click('#submit');
    await page.waitForSelector('#name-error:not([hidden])');
    await page.screenshot({ path: join(SCREENSHOTS, `errors-all-at-once-${size}.png`), fullPage: true });
    // Assess
    const shown = await page.$$eval('#checkin .error:not([hidden])', (nodes) =>
      nodes.map((node) => [node.id, node.textContent]),
    );
    expect(shown).toEqual([
      ['name-error', 'Please enter your name.'],
      ['email-error', 'Please enter your email address.'],
      [`${studio.fieldKeys.size}-error`, 'Please choose an option.'],
      ['shootingDayId-error', 'Please pick a shooting day.'],
      ['selfieBase64-error', 'Please add a selfie.'],
      ['consentGiven-error', 'Please accept the consent to check in.'],
    ]);
    for (const [input, error] of [
      ['#name', 'name-error'],
      ['#email', 'email-error'],
      ['#selfie', 'selfieBase64-error'],
      ['#consentGiven', 'consentGiven-error'],
    ]) {
      expect([input, await page.getAttribute(input!, 'aria-invalid')]).toEqual([input, 'true']);
      expect([input, (await page.getAttribute(input!, 'aria-describedby'))?.split(' ')]).toEqual([
        input,
        expect.arrayContaining([error]),
      ]);
    }
    expect(await focusedId(page)).toBe('name');
    // Within sight: each message directly below its field.
    const gap = await page.evaluate(
      'document.getElementById("name-error").getBoundingClientRect().top - document.getElementById("name").getBoundingClientRect().bottom',
    );
    expect(gap).toBeGreaterThanOrEqual(4);
    expect(gap).toBeLessThan(24);
    expect(await personsOf(studio)).toEqual([]);
  });

  it('says "too long" with the limit, and clears each error once its field is right', async () => {
    // Prepare
    const studio = await createCheckinStudio();
    await page.goto(pageUrl(studio));
    await page.waitForSelector('#checkin:not([hidden])');
    await fillParticipant(page, studio);
    await page.fill('#name', 'A'.repeat(201));
    // Act
    await page.click('#submit');
    await page.waitForSelector('#name-error:not([hidden])');
    const tooLong = await page.textContent('#name-error');
    await page.fill('#name', 'Ada Lovelace');
    await page.click('#submit');
    await page.waitForSelector('#done:not([hidden])');
    // Assess
    expect(tooLong).toBe('Please shorten this to at most 200 characters.');
    expect(await page.getAttribute('#name', 'aria-invalid')).toBeNull();
  });

  it('refreshes the days after shooting_day_full: the day shows full and greyed, everything else entered is kept', async () => {
    // Prepare: the page shows the small day with room; then colleagues take its last spots.
    const studio = await createCheckinStudio();
    await page.goto(pageUrl(studio));
    await page.waitForSelector('#checkin:not([hidden])');
    await fillParticipant(page, studio);
    await page.check(`input[name="shootingDayId"][value="${studio.smallDay.id}"]`);
    const before = await textOf(page, `label:has(input[value="${studio.smallDay.id}"])`);
    await fillSmallDay(api, studio);
    // Act
    await page.click('#submit');
    await page.waitForSelector('#shootingDayId-error:not([hidden])');
    await page.screenshot({ path: join(SCREENSHOTS, `day-full-refreshed-${size}.png`), fullPage: true });
    // Assess
    const smallDay = page.locator(`label:has(input[value="${studio.smallDay.id}"])`);
    expect(before).toMatch(/\(2 left\)$/);
    expect(await textOf(page, `label:has(input[value="${studio.smallDay.id}"])`)).toMatch(/\(full\)$/);
    expect(await smallDay.getAttribute('class')).toContain('full');
    expect(await page.isDisabled(`input[value="${studio.smallDay.id}"]`)).toBe(true);
    expect(await page.isChecked(`input[value="${studio.smallDay.id}"]`)).toBe(false);
    expect(await page.textContent('#shootingDayId-error')).toBe(
      'This shooting day has just been fully booked. Please choose another; everything else you entered is kept.',
    );
    expect(await focusedId(page)).toBe('shootingDayId-error');
    expect([
      await page.inputValue('#name'),
      await page.inputValue('#email'),
      await page.isChecked('#consentGiven'),
    ]).toEqual(['Ada Lovelace', 'ada@example.com', true]);
    // ...and the participant goes on with another day.
    await page.check(`input[name="shootingDayId"][value="${studio.openDay.id}"]`);
    await page.click('#submit');
    await page.waitForSelector('#done:not([hidden])');
  });

  it('fetches the availability again when the page regains focus', async () => {
    // Prepare
    const studio = await createCheckinStudio();
    await page.goto(pageUrl(studio));
    await page.waitForSelector('#checkin:not([hidden])');
    await fillSmallDay(api, studio);
    // Act: the participant comes back to the tab (the page refreshes at most every 5 seconds).
    const smallDayFull = `label.full:has(input[value="${studio.smallDay.id}"])`;
    for (let tries = 0; tries < 20 && !(await page.$(smallDayFull)); tries += 1) {
      await page.evaluate('window.dispatchEvent(new Event("focus"))');
      await page.waitForSelector(smallDayFull, { timeout: 500 }).catch(() => undefined);
    }
    // Assess
    expect(await textOf(page, smallDayFull)).toMatch(/\(full\)$/);
  });
});

describe('check-in page in German and French', () => {
  let page: Page;

  it.each(Object.entries(VIEWPORTS))(
    'speaks German throughout on a %s for a German browser, dates included, and stores the language',
    async (size, viewport) => {
      // Prepare: a German consent text, and a terms link.
      const studio = await createPayingStudio();
      await updateGallerySettings(studio.tenant.tenantId, studio.token, {
        consentTexts: { de: 'Ich willige in die Verarbeitung meiner Fotos ein.' },
        termsUrl: 'https://studio.example/agb',
      });
      page = await newWatchedPage({ viewport, locale: 'de-DE' });
      await page.goto(pageUrl(studio));
      await page.waitForSelector('#checkin:not([hidden])');
      // Act
      await page.click('#submit');
      await page.waitForSelector('#name-error:not([hidden])');
      await page.screenshot({ path: join(SCREENSHOTS, `de-1-errors-${size}.png`), fullPage: true });
      const errors = await page.$$eval('#checkin .error:not([hidden])', (nodes) =>
        nodes.map((node) => node.textContent),
      );
      await fillParticipant(page, studio, `ada-${size}@example.com`);
      await page.check(`input[name="selectedPackageId"][value="${studio.paidPackage.id}"]`);
      await page.check('#termsAccepted');
      await page.screenshot({ path: join(SCREENSHOTS, `de-2-form-${size}.png`), fullPage: true });
      const form = {
        lang: await page.getAttribute('html', 'lang'),
        switcher: await page.inputValue('#language'),
        name: await textOf(page, 'label[for="name"]'),
        day: await textOf(page, `label:has(input[value="${studio.openDay.id}"])`),
        smallDay: await textOf(page, `label:has(input[value="${studio.smallDay.id}"])`),
        price: await textOf(page, `label:has(input[value="${studio.paidPackage.id}"])`),
        consent: await textOf(page, '#consent-text'),
        fallbackShown: await page.isVisible('#consent-fallback'),
        terms: await page.getAttribute('#terms-link', 'href'),
        termsText: await textOf(page, '#terms-link'),
        submit: await textOf(page, '#submit'),
      };
      // Nothing of the page's own English shows (the gallery's field, day and package names are the studio's words).
      const pageText = await textOf(page, 'body');
      await page.click('#submit');
      await page.waitForURL(`${stripe.emulator.url}/pay/**`);
      await page.click('#pay');
      await page.waitForSelector('#done:not([hidden])');
      await page.screenshot({ path: join(SCREENSHOTS, `de-3-recap-${size}.png`), fullPage: true });
      // Assess
      expect(errors).toEqual([
        'Bitte geben Sie Ihren Namen ein.',
        'Bitte geben Sie Ihre E-Mail-Adresse ein.',
        'Bitte wählen Sie eine Option.',
        'Bitte wählen Sie einen Shooting-Tag.',
        'Bitte willigen Sie ein, um einzuchecken.',
      ]);
      expect(form).toEqual({
        lang: 'de',
        switcher: 'de',
        name: 'Vollständiger Name *',
        day: 'Open Sonntag, 2. Mai 2027 09:00–17:00 Uhr',
        smallDay: 'Small Samstag, 1. Mai 2027 09:00–10:00 Uhr (noch 2 frei)',
        price: 'Premium 29,00 €',
        consent: 'Ich willige in die Verarbeitung meiner Fotos ein.',
        fallbackShown: false,
        terms: 'https://studio.example/agb',
        termsText: 'Bedingungen lesen (öffnet einen neuen Tab)',
        submit: 'Einchecken',
      });
      expect(pageText).not.toMatch(/Please|Shooting day|Package|Consent|Check in|My photos|Language|Full name/);
      expect(await textOf(page, '#done-heading')).toBe('Sie sind eingecheckt');
      expect(await recapOf(page)).toEqual([
        'Name',
        'Ada Lovelace',
        'Tag',
        'Sonntag, 2. Mai 2027 (Open)',
        'Uhrzeit',
        '09:00–17:00 Uhr',
        'Paket',
        'Premium',
      ]);
      expect(await textOf(page, '#title')).toBe('Check-in gallery');
      expect(await personsOf(studio)).toEqual([expect.objectContaining({ name: 'Ada Lovelace', language: 'de' })]);
    },
  );

  it('switches to French with the switcher, keeps it after a reload, and marks a consent text it has only in English', async () => {
    // Prepare: an English browser; the gallery has its consent text in English only.
    const studio = await createCheckinStudio();
    page = await newWatchedPage({ viewport: VIEWPORTS.phone, locale: 'en-US' });
    await page.goto(pageUrl(studio));
    await page.waitForSelector('#checkin:not([hidden])');
    const english = await textOf(page, 'label[for="name"]');
    // Act
    await page.selectOption('#language', 'fr');
    await page.reload();
    await page.waitForSelector('#checkin:not([hidden])');
    await page.screenshot({ path: join(SCREENSHOTS, `fr-form-phone.png`), fullPage: true });
    // Assess
    expect(english).toBe('Full name *');
    expect(await page.getAttribute('html', 'lang')).toBe('fr');
    expect(await textOf(page, 'label[for="name"]')).toBe('Nom complet *');
    expect(await textOf(page, `label:has(input[value="${studio.openDay.id}"])`)).toBe(
      'Open dimanche 2 mai 2027 09:00 – 17:00',
    );
    expect(await textOf(page, '#consent-text')).toBe('I agree.');
    expect(await page.getAttribute('#consent-text', 'lang')).toBe('en');
    expect(await textOf(page, '#consent-fallback')).toBe(
      "Ce texte n'est pas disponible en français ; il est affiché dans la langue où le studio l'a rédigé.",
    );
    expect(await page.getAttribute('#consentGiven', 'aria-describedby')).toBe('consent-fallback');
  });

  it('asks for the photo link in German, and the email comes in German', async () => {
    // Prepare: a participant imported without a language.
    process.env.CHECKIN_PAGE_URL = `${pageBaseOf(api.url)}/checkin/`;
    const studio = await createCheckinStudio();
    const address = `linda-${studio.slug}@example.com`;
    await api.call(`/groupshoot/${studio.token}/persons`, {
      method: 'POST',
      headers: studio.serverHeaders,
      body: { persons: [{ name: 'Linda Link', email: address }] },
    });
    page = await newWatchedPage({ viewport: VIEWPORTS.phone, locale: 'de-DE' });
    await page.goto(`${pageUrl(studio)}#my-photos`);
    await page.waitForSelector('#my-photos:not([hidden])');
    // Act
    await page.fill('#link-email', address);
    await page.click('#link-submit');
    await page.waitForSelector('#link-sent:not([hidden])');
    await page.screenshot({ path: join(SCREENSHOTS, `de-photo-link-sent-phone.png`), fullPage: true });
    const [email] = await ses.waitForEmailsTo(address, 1);
    // Assess
    expect(await textOf(page, '#link-sent')).toMatch(
      /^Falls eine teilnehmende Person dieser Galerie diese E-Mail-Adresse hat/,
    );
    expect(email!.subject).toBe(EMAIL_MESSAGES.de.linkSubject('Check-in gallery'));
    expect(email!.body.text).toContain(EMAIL_MESSAGES.de.greeting('Linda Link'));
  });

  it('takes the gallery default where the browser asks for no language of the page', async () => {
    const studio = await createCheckinStudio({ defaultLanguage: 'de' });
    page = await newWatchedPage({ viewport: VIEWPORTS.desktop, locale: 'ja-JP' });
    await page.goto(pageUrl(studio));
    await page.waitForSelector('#checkin:not([hidden])');
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    expect(await textOf(page, '#submit')).toBe('Einchecken');
  });
});

describe('check-in page: branding and the keyboard', () => {
  let page: Page;

  it("shows the gallery's logo and puts its accent colour on the button", async () => {
    // Prepare: a 1×1 WebP logo as the admin CLI stores one.
    const logoUrl = 'data:image/webp;base64,UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==';
    const studio = await createCheckinStudio({ branding: { logoUrl, accentColor: '#7a1f5c' } });
    page = await newWatchedPage({ viewport: VIEWPORTS.phone });
    // Act
    await page.goto(pageUrl(studio));
    await page.waitForSelector('#checkin:not([hidden])');
    await page.screenshot({ path: join(SCREENSHOTS, `branded-phone.png`), fullPage: true });
    // Assess
    expect(await page.getAttribute('#logo', 'src')).toBe(logoUrl);
    expect(await page.isVisible('#logo')).toBe(true);
    expect(await page.evaluate('getComputedStyle(document.getElementById("submit")).backgroundColor')).toBe(
      'rgb(122, 31, 92)',
    );
  });

  it('can be completed with the keyboard alone, with a visible focus ring on each stop', async () => {
    // Prepare
    const studio = await createCheckinStudio({
      granularConsents: { face: false, notification: false, hrExport: false },
    });
    page = await newWatchedPage({ viewport: VIEWPORTS.desktop });
    await page.goto(pageUrl(studio));
    await page.waitForSelector('#checkin:not([hidden])');
    const outlines: string[] = [];
    const tab = async () => {
      await page.keyboard.press('Tab');
      outlines.push(
        await page.evaluate<string>(
          'getComputedStyle(document.activeElement).outlineStyle + " " + getComputedStyle(document.activeElement).outlineWidth',
        ),
      );
    };
    // Act: from the top of the page, only keys.
    await page.focus('#language');
    await tab(); // My photos
    await tab(); // name
    await page.keyboard.type('Ada Lovelace');
    await tab();
    await page.keyboard.type('ada@example.com');
    await tab(); // size
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await tab(); // years
    await tab(); // motto
    await tab(); // first day
    await page.keyboard.press('Space');
    await tab(); // first package
    await page.keyboard.press('Space');
    await tab(); // order notes
    await tab(); // selfie
    await tab(); // consent
    await page.keyboard.press('Space');
    await tab(); // submit
    const submitFocused = await focusedId(page);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#done:not([hidden])');
    // Assess
    expect(submitFocused).toBe('submit');
    expect(outlines.every((outline) => outline === 'solid 3px')).toBe(true);
    expect(await personsOf(studio)).toEqual([
      expect.objectContaining({ name: 'Ada Lovelace', shootingDayId: studio.smallDay.id, consentGiven: true }),
    ]);
  });
});
