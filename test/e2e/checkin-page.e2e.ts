import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { type AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Request } from 'playwright-core';
import { recordPhoto } from '#lib/photos/common/store/photos';
import { updateTenantSettings } from '#lib/tenants/store/tenants';
import { photoIdOf, photoObjectKey } from '#lib/platform/media-keys';
import { useLocalApi } from '../support/local-api';
import { type CheckinStudio, createCheckinStudio } from '../support/checkin-gallery';
import { makeJpeg, uploadObject } from '../support/media';
import { qrTextsInPng } from '../support/qr-reader';
import { useStripeEmulator } from '../support/stripe';
import { useSesEmulator } from '../support/ses';
import {
  SCREENSHOTS,
  VIEWPORTS,
  axeViolations,
  checkinPageUrl,
  fillParticipant,
  pageBaseOf,
  personsOf as personsOfGallery,
  recapOf,
  useCheckinPageBrowser,
} from '../support/checkin-page-browser';

const api = useLocalApi({ checkinPage: true });
const stripe = useStripeEmulator(api);
const ses = useSesEmulator();
const browser = useCheckinPageBrowser();
const { cspViolations, newWatchedPage } = browser;
let selfieFile: string;

beforeAll(() => {
  selfieFile = join(mkdtempSync(join(tmpdir(), 'selfie-')), 'me.jpg');
  writeFileSync(selfieFile, makeJpeg(640, 480));
});

/** The page as an in-page check sees it (this project compiles without the DOM library). */
type PageWithImages = {
  document: { querySelectorAll(selector: string): ArrayLike<{ complete: boolean; naturalWidth: number }> };
};

/**
 * Whether every image the selector matches has loaded; run in the page by waitForFunction as a
 * function, since the page's CSP refuses the eval a string predicate needs.
 */
const allImagesLoaded = (selector: string) =>
  Array.from((globalThis as unknown as PageWithImages).document.querySelectorAll(selector)).every(
    (image) => image.complete && image.naturalWidth > 0,
  );

const pageBase = () => pageBaseOf(api.url);
const pageUrl = (studio: CheckinStudio) => checkinPageUrl(api.url, studio);

/** A studio that takes payments, with the page filled in for its paid package and submitted. */
async function submitPaidCheckin(page: Page, size: string): Promise<CheckinStudio> {
  const studio = await createCheckinStudio();
  await updateTenantSettings(studio.slug, {
    paymentAccessApproved: true,
    stripeAccountId: `acct_${studio.slug.replace(/-/g, '')}`,
  });
  await page.goto(pageUrl(studio));
  await page.waitForSelector('#checkin:not([hidden])');
  await fillParticipant(page, studio);
  await page.check(`input[name="selectedPackageId"][value="${studio.paidPackage.id}"]`);
  await page.waitForSelector('#terms-field:not([hidden])');
  await page.check('#termsAccepted');
  await page.screenshot({ path: join(SCREENSHOTS, `paid-1-form-${size}.png`), fullPage: true });
  await page.click('#submit');
  await page.waitForURL(`${stripe.emulator.url}/pay/**`);
  return studio;
}

const personsOf = (studio: CheckinStudio) => personsOfGallery(api, studio);

describe.each(Object.entries(VIEWPORTS))('check-in page on a %s', (size, viewport) => {
  let page: Page;
  beforeEach(async () => {
    page = await newWatchedPage({ viewport });
  });
  afterEach(async () => {
    await page.close();
  });

  it('says what the face consent lets the studio do with the selfie, and how long it keeps the face template', async () => {
    // Prepare
    const studio = await createCheckinStudio();
    // Act
    await page.goto(pageUrl(studio));
    await page.waitForSelector('#checkin:not([hidden])');
    // Assess
    const faceConsent = page.getByRole('checkbox', {
      name: /^Use my selfie to check that the photos delivered to me are of me/,
    });
    expect(await faceConsent.isVisible()).toBe(true);
    expect(await faceConsent.getAttribute('aria-describedby')).toBe('faceConsent-hint');
    expect(await page.textContent('#faceConsent-hint')).toBe(
      'The studio keeps a face template made from your selfie only while it keeps the selfie, and deletes it with your data.',
    );
  });

  it('checks a participant in with fields, consents, day and selfie, and shows the code', async () => {
    // Prepare
    const studio = await createCheckinStudio();
    await page.goto(pageUrl(studio));
    await page.waitForSelector('#checkin:not([hidden])');
    // Act
    await fillParticipant(page, studio);
    await page.check(`input[name="shootingDayId"][value="${studio.smallDay.id}"]`);
    await page.check(`input[name="selectedPackageId"][value="${studio.freePackage.id}"]`);
    await page.setInputFiles('#selfie', selfieFile);
    await page.waitForSelector('#selfie-preview:not([hidden])');
    await page.screenshot({ path: join(SCREENSHOTS, `free-1-form-${size}.png`), fullPage: true });
    await page.click('#submit');
    await page.waitForSelector('#done:not([hidden])');
    await page.screenshot({ path: join(SCREENSHOTS, `free-2-code-${size}.png`), fullPage: true });
    // Assess
    const code = await page.textContent('#code');
    expect(code).toMatch(/^[A-Z2-9]{4}$/);
    expect(await personsOf(studio)).toEqual([
      expect.objectContaining({
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        code,
        shootingDayId: studio.smallDay.id,
        packageId: studio.freePackage.id,
        consentGiven: true,
        faceConsent: true,
        customFields: { [studio.fieldKeys.size]: 'm', [studio.fieldKeys.motto]: 'Ship it' },
        hasSelfie: true,
        source: 'checkin',
      }),
    ]);
  });

  it('shows the access code on the success page as a QR code of the code, large enough to photograph', async () => {
    // Prepare
    const studio = await createCheckinStudio();
    await page.goto(pageUrl(studio));
    await page.waitForSelector('#checkin:not([hidden])');
    await fillParticipant(page, studio);
    // Act
    await page.click('#submit');
    await page.waitForSelector('#code-qr-figure:not([hidden]) svg');
    const qr = page.locator('#code-qr svg');
    const png = await qr.screenshot();
    await page.screenshot({ path: join(SCREENSHOTS, `free-3-qr-${size}.png`), fullPage: true });
    // Assess
    const code = await page.textContent('#code');
    expect(code).toMatch(/^[A-Z2-9]{4}$/);
    expect(await qrTextsInPng(png)).toEqual([code]);
    const box = (await qr.boundingBox())!;
    // 29 modules (version 1 and its quiet zone) at 8 CSS pixels or more each.
    expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(Math.min(232, viewport.width * 0.85));
    expect(await page.getAttribute('#done-photos-link', 'href')).toBe(`#my-photos/${code}`);
  });

  it('waits out a rate limit by itself, counting down at the button, and then checks the participant in', async () => {
    // Prepare: one check-in per 3 seconds from an address, and this address (the browser's) has just used it.
    const studio = await createCheckinStudio({ publicLimits: { checkins: { limit: 1, windowMs: 3_000 } } });
    await page.goto(pageUrl(studio));
    await page.waitForSelector('#checkin:not([hidden])');
    const other = await api.call('/group-shoot', {
      method: 'POST',
      headers: studio.publicHeaders,
      body: studio.validBody({ name: 'Colleague' }),
    });
    expect(other.status).toBe(200);
    // Act
    await fillParticipant(page, studio);
    await page.click('#submit');
    await page.waitForSelector('#submit-wait:has-text("Many people are checking in right now")');
    await page.screenshot({ path: join(SCREENSHOTS, `rate-limited-${size}.png`) });
    const button = (await page.locator('#submit').boundingBox())!;
    const countdown = (await page.locator('#submit-wait').boundingBox())!;
    const countdownLive = await page.getAttribute('#submit-wait', 'aria-live');
    const buttonDescribedBy = await page.getAttribute('#submit', 'aria-describedby');
    await page.waitForSelector('#done:not([hidden])', { timeout: 15_000 });
    // Assess: the countdown sits right below the button, in the viewport the participant looks at, and is announced.
    expect(countdown.y - (button.y + button.height)).toBeGreaterThanOrEqual(0);
    expect(countdown.y - (button.y + button.height)).toBeLessThan(40);
    expect(Math.floor(countdown.y + countdown.height)).toBeLessThanOrEqual(viewport.height);
    expect(countdownLive).toBe('polite');
    expect(buttonDescribedBy).toBe('submit-wait');
    const code = await page.textContent('#code');
    expect(code).toMatch(/^[A-Z2-9]{4}$/);
    expect((await personsOf(studio)).map((person: { name: string }) => person.name).sort()).toEqual([
      'Ada Lovelace',
      'Colleague',
    ]);
  });

  it('shows a validation error next to its field, in words, and moves focus there', async () => {
    const studio = await createCheckinStudio();
    await page.goto(pageUrl(studio));
    await page.waitForSelector('#checkin:not([hidden])');
    await fillParticipant(page, studio, 'ada@');
    await page.click('#submit');
    await page.waitForSelector('#email-error:not([hidden])');
    await page.screenshot({ path: join(SCREENSHOTS, `error-email-${size}.png`), fullPage: true });
    expect(await page.textContent('#email-error')).toBe(
      'This is not an email address. Please check it (for example name@example.com).',
    );
    expect(await page.getAttribute('#email', 'aria-invalid')).toBe('true');
    expect((await page.getAttribute('#email', 'aria-describedby'))?.split(' ')).toContain('email-error');
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe('email');
    expect(await page.textContent('body')).not.toContain('invalid_field');
    expect(await personsOf(studio)).toEqual([]);
  });

  it('names the allowed email domains below the email field, and shows a refusal of another domain there', async () => {
    const studio = await createCheckinStudio({
      checkinPolicy: { mode: 'open', allowedEmailDomains: ['example.com', '*.example.org'] },
    });
    await page.goto(pageUrl(studio));
    await page.waitForSelector('#email-hint:not([hidden])');
    expect(await page.textContent('#email-hint')).toBe(
      'Use your address at example.com or any subdomain of example.org.',
    );
    await fillParticipant(page, studio, 'ada@elsewhere.example');
    await page.click('#submit');
    await page.waitForSelector('#email-error:not([hidden])');
    expect(await page.textContent('#email-error')).toBe('Please use your work email address.');
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe('email');
    expect(await personsOf(studio)).toEqual([]);
  });

  it('takes a paid package through checkout and recaps name, day, time and package under the gallery name once paid', async () => {
    // Act
    const studio = await submitPaidCheckin(page, size);
    await page.screenshot({ path: join(SCREENSHOTS, `paid-2-checkout-${size}.png`), fullPage: true });
    await page.click('#pay');
    await page.waitForSelector('#done:not([hidden])');
    await page.screenshot({ path: join(SCREENSHOTS, `paid-3-recap-${size}.png`), fullPage: true });
    // Assess
    const code = await page.textContent('#code');
    expect(page.url()).toBe(`${pageBase()}/checkin/`);
    expect(await page.textContent('#title')).toBe('Check-in gallery');
    expect(await recapOf(page)).toEqual([
      'Name',
      'Ada Lovelace',
      'Day',
      'Sunday, May 2, 2027 (Open)',
      'Time',
      '9:00 AM – 5:00 PM',
      'Package',
      'Premium',
    ]);
    expect(await page.isVisible('#code-qr svg')).toBe(true);
    expect(await personsOf(studio)).toEqual([
      expect.objectContaining({ code, packageId: studio.paidPackage.id, name: 'Ada Lovelace' }),
    ]);
  });

  it('offers a retry after a cancelled checkout, with a new checkout for the same reservation', async () => {
    await submitPaidCheckin(page, size);
    const firstCheckout = page.url();
    await page.click('#cancel');
    await page.waitForSelector('#cancelled:not([hidden])');
    await page.screenshot({ path: join(SCREENSHOTS, `paid-cancelled-${size}.png`), fullPage: true });
    await page.click('#retry');
    await page.waitForURL(`${stripe.emulator.url}/pay/**`);
    expect(page.url()).not.toBe(firstCheckout);
  });
});

describe('check-in page: tokens in the address', () => {
  let page: Page;
  let requests: Request[];
  beforeEach(async () => {
    page = await newWatchedPage({ viewport: VIEWPORTS.desktop });
    requests = [];
    page.on('request', (request) => requests.push(request));
  });
  afterEach(async () => {
    await page.close();
  });

  /** The Referer of every request the page made so far, as Chromium sent it (absent: undefined). */
  const referers = () =>
    Promise.all(requests.map(async (request) => [request.url(), (await request.allHeaders()).referer] as const));

  it('takes the gallery token and tenant out of the address bar, still renders the check-in, and no request carries a Referer', async () => {
    // Prepare
    const studio = await createCheckinStudio();
    // Act: open the page, then load an image and follow a link from it.
    await page.goto(`${pageUrl(studio)}&lang=en`);
    await page.waitForSelector('#checkin:not([hidden])');
    const address = page.url();
    // Its answer, not just its start: a request still in flight when the page navigates away may never get its sent headers recorded.
    const imageAnswered = page.waitForResponse(`${pageBase()}/checkin/probe.png`);
    // A string, as the tests' TypeScript knows no DOM: an image and a link, as a tenant's copy of the page might add.
    await page.evaluate(`(() => {
      const image = document.createElement('img');
      image.src = ${JSON.stringify(`${pageBase()}/checkin/probe.png`)};
      document.body.append(image);
      const link = document.createElement('a');
      link.href = ${JSON.stringify(`${pageBase()}/checkin/elsewhere`)};
      link.id = 'probe-link';
      link.textContent = 'elsewhere';
      document.body.append(link);
    })()`);
    await imageAnswered;
    await Promise.all([page.waitForURL(`${pageBase()}/checkin/elsewhere`), page.click('#probe-link')]);
    // Assess
    expect(address).toBe(`${pageBase()}/checkin/?lang=en`);
    expect(await page.evaluate('document.referrer')).toBe('');
    const sent = await referers();
    expect(sent.map(([url]) => new URL(url).pathname)).toEqual(
      expect.arrayContaining([
        '/checkin/config.js',
        '/checkin/checkin.js',
        `/v1/group-shoot/checkin/${studio.token}`,
        '/checkin/probe.png',
        '/checkin/elsewhere',
      ]),
    );
    // Where Chromium has only a request's provisional headers, no referrer shows as an empty Referer: no address either.
    expect(sent.filter(([, referer]) => referer !== undefined && referer !== '')).toEqual([]);
  });

  it('takes a gallery token out of the path, and a reload still shows the check-in', async () => {
    const studio = await createCheckinStudio();

    await page.goto(`${pageBase()}/checkin/${studio.token}?tenant=${studio.slug}`);
    await page.waitForSelector('#checkin:not([hidden])');
    const address = page.url();
    await page.reload();
    await page.waitForSelector('#checkin:not([hidden])');

    expect(address).toBe(`${pageBase()}/checkin/`);
    expect(page.url()).toBe(`${pageBase()}/checkin/`);
    expect(await page.textContent('#title')).toBe('Check-in gallery');
  });

  it('takes the status token out of the address after a paid checkout, and shows the code again after a reload', async () => {
    const studio = await submitPaidCheckin(page, 'tokens');
    await page.click('#pay');
    await page.waitForSelector('#done:not([hidden])');
    const code = await page.textContent('#code');
    const stripeRedirect = requests.find(
      (request) => request.isNavigationRequest() && request.url().includes('checkout=success'),
    );

    await page.reload();
    await page.waitForSelector('#done:not([hidden])');

    expect(stripeRedirect?.url()).toContain('statusToken=');
    expect(page.url()).toBe(`${pageBase()}/checkin/`);
    expect(await page.textContent('#code')).toBe(code);
    expect(await personsOf(studio)).toEqual([expect.objectContaining({ code })]);
  });

  it('takes the retry token out of the address after a cancelled checkout, and still offers the retry after a reload', async () => {
    await submitPaidCheckin(page, 'tokens');
    await page.click('#cancel');
    await page.waitForSelector('#cancelled:not([hidden])');
    const address = page.url();

    await page.reload();
    await page.waitForSelector('#cancelled:not([hidden])');
    await page.click('#retry');
    await page.waitForURL(`${stripe.emulator.url}/pay/**`);

    expect(address).toBe(`${pageBase()}/checkin/`);
  });
});

interface ImportedParticipant {
  personId: string;
  code: string;
}

describe.each(Object.entries(VIEWPORTS))('check-in page: the My photos view on a %s', (size, viewport) => {
  let page: Page;
  let studio: CheckinStudio;
  let ada: ImportedParticipant;
  let grace: ImportedParticipant;
  const adaPhotos = ['ada-portrait-1.jpg', 'ada-portrait-2.jpg', 'ada-portrait-3.jpg'];

  /** A photo of the person as ingest records one: the object in the bucket and its record. */
  async function givePhoto(personId: string, fileName: string, index: number): Promise<void> {
    const objectKey = photoObjectKey({ tenantId: studio.tenant.tenantId, token: studio.token, personId, fileName });
    await uploadObject(objectKey, makeJpeg(300 + index * 20, 400));
    const photo = {
      photoId: photoIdOf(objectKey),
      personId,
      fileName,
      objectKey,
      width: 300 + index * 20,
      height: 400,
      capturedAt: null,
      createdAt: new Date(Date.UTC(2027, 4, 1, 9, index)).toISOString(),
    };
    expect(await recordPhoto({ tenantId: studio.tenant.tenantId, token: studio.token }, photo)).toBe('recorded');
  }

  beforeAll(async () => {
    // The code form where the gallery takes it; the refusal tests below spend wrong pairs from one address.
    studio = await createCheckinStudio({
      photoAccess: { codeAndEmail: true, codeAndEmployeeId: true },
      publicLimits: { photoLookupFailuresPerSite: { limit: 100, windowMs: 3_600_000 } },
    });
    const imported = await api.call(`/groupshoot/${studio.token}/persons`, {
      method: 'POST',
      headers: studio.serverHeaders,
      body: {
        persons: [
          { name: 'Ada Lovelace', email: 'ada@example.com' },
          { name: 'Grace Hopper', employeeId: 'E-2' },
        ],
      },
    });
    [ada, grace] = imported.body.persons;
    await Promise.all(adaPhotos.map((fileName, index) => givePhoto(ada.personId, fileName, index)));
    await givePhoto(grace.personId, 'grace.jpg', 0);
  });
  beforeEach(async () => {
    page = await newWatchedPage({ viewport, acceptDownloads: true });
  });
  afterEach(async () => {
    await page.close();
  });

  const photosUrl = (fragment: string) => `${pageUrl(studio)}#${fragment}`;
  const shownFiles = () =>
    page.$$eval('#photos-grid img', (images) => images.map((image) => image.getAttribute('alt')));

  it('opens from a link with the code, shows the right photos in a grid, a full view and a download', async () => {
    // Act: the address a photo-ready email links to, with the code in lower case
    await page.goto(photosUrl(`my-photos/${ada.code.toLowerCase()}`));
    await page.waitForSelector('#my-photos:not([hidden])');
    const address = page.url();
    expect(await page.inputValue('#photos-code')).toBe(ada.code);
    expect(await page.isVisible('#checkin')).toBe(false);
    await page.fill('#photos-email', ' ADA@example.com ');
    await page.screenshot({ path: join(SCREENSHOTS, `photos-1-form-${size}.png`), fullPage: true });
    await page.click('#photos-submit');
    await page.waitForSelector('#photos-result:not([hidden])');
    // every thumbnail loaded from its signed URL
    await page.waitForFunction(allImagesLoaded, '#photos-grid img');
    await page.screenshot({ path: join(SCREENSHOTS, `photos-2-grid-${size}.png`), fullPage: true });
    await page.click('#photos-grid li:nth-child(2) button.thumbnail');
    await page.waitForSelector('#photo-viewer[open]');
    await page.waitForFunction(allImagesLoaded, '#viewer-image');
    await page.screenshot({ path: join(SCREENSHOTS, `photos-3-full-${size}.png`) });
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#viewer-download')]);
    // Assess
    expect(address).toBe(`${pageBase()}/checkin/#my-photos`);
    expect(await shownFiles()).toEqual(adaPhotos);
    expect(await page.textContent('#photos-heading')).toBe('Ada Lovelace, your 3 photos:');
    expect(await page.textContent('#viewer-title')).toBe('ada-portrait-2.jpg (2 of 3)');
    expect(await page.evaluate('document.getElementById("viewer-image").naturalWidth')).toBe(320);
    expect(download.suggestedFilename()).toBe('ada-portrait-2.jpg');
    const saved = readFileSync(await download.path());
    expect(saved.subarray(0, 2).toString('hex')).toBe('ffd8');
    await page.click('#viewer-next');
    expect(await page.textContent('#viewer-title')).toBe('ada-portrait-3.jpg (3 of 3)');
  });

  it('picks a photo as the portrait with the code the view was opened with, marks it pressed, and the studio sees the pick', async () => {
    // Prepare
    await page.goto(photosUrl(`my-photos/${ada.code}`));
    await page.waitForSelector('#my-photos:not([hidden])');
    await page.fill('#photos-email', 'ada@example.com');
    await page.click('#photos-submit');
    await page.waitForSelector('#photos-result:not([hidden])');
    // Act
    await page.click('#photos-grid li:nth-child(3) button.pick');
    await page.waitForSelector('#photos-grid li:nth-child(3) button.pick[aria-pressed="true"]');
    await page.screenshot({ path: join(SCREENSHOTS, `photos-4-picked-${size}.png`), fullPage: true });
    // Assess
    const pressed = await page.$$eval('#photos-grid button.pick', (buttons) =>
      buttons.map((button) => [button.textContent, button.getAttribute('aria-pressed')]),
    );
    expect(pressed).toEqual([
      ['Use as my portrait', 'false'],
      ['Use as my portrait', 'false'],
      ['Use as my portrait', 'true'],
    ]);
    expect(await page.textContent('#photos-grid li:nth-child(3) .picked-note')).toBe('Your portrait');
    expect(await page.$$('#photos-grid .picked-note')).toHaveLength(1);
    expect(await page.textContent('#status')).toBe('Saved: this photo is your portrait.');
    const seen = await api.call(`/groupshoot/${studio.token}/persons/${ada.personId}/photos`, {
      headers: studio.serverHeaders,
    });
    expect(seen.body.photos.find((photo: { fileName: string }) => photo.fileName === adaPhotos[2]).photoId).toBe(
      seen.body.pickedPhotoId,
    );
    expect(await axeViolations(page)).toEqual([]);
  });

  it('is reachable from the check-in page, and takes the employee ID of a person without an email', async () => {
    await page.goto(pageUrl(studio));
    await page.waitForSelector('#checkin:not([hidden])');
    await page.click('#my-photos-link');
    await page.waitForSelector('#my-photos:not([hidden])');
    await page.fill('#photos-code', grace.code);
    await page.check('#photos-no-email');
    await page.fill('#photos-employeeId', 'E-2');
    await page.click('#photos-submit');
    await page.waitForSelector('#photos-result:not([hidden])');
    expect(await shownFiles()).toEqual(['grace.jpg']);
    await page.click('#back-to-checkin');
    await page.waitForSelector('#checkin:not([hidden])');
    expect(await page.isVisible('#my-photos')).toBe(false);
  });

  it.each([
    ['a wrong email', () => ({ code: ada.code, email: 'eve@example.com' })],
    ['an unknown code', () => ({ code: ada.code === 'ZZZZ' ? 'YYYY' : 'ZZZZ', email: 'ada@example.com' })],
    ["another participant's code", () => ({ code: grace.code, email: 'ada@example.com' })],
    ['the employee ID of a person who has an email', () => ({ code: ada.code, employeeId: 'E-2' })],
  ])('refuses %s with the one message and shows no photo', async (_case, pairOf) => {
    // Prepare
    const pair = pairOf() as { code: string; email?: string; employeeId?: string };
    await page.goto(photosUrl('my-photos'));
    await page.waitForSelector('#my-photos:not([hidden])');
    // Act
    await page.fill('#photos-code', pair.code);
    if (pair.employeeId) {
      await page.check('#photos-no-email');
      await page.fill('#photos-employeeId', pair.employeeId);
    } else {
      await page.fill('#photos-email', pair.email!);
    }
    await page.click('#photos-submit');
    await page.waitForSelector('#photos-error:not([hidden])');
    // Assess
    expect(await page.textContent('#photos-error')).toBe(
      'We found no photos for this code with this email address or employee ID. Please check both and try again.',
    );
    expect(await page.isVisible('#photos-result')).toBe(false);
    expect(await page.$$('#photos-grid img')).toHaveLength(0);
    expect(await page.textContent('body')).not.toContain('photos_not_found');
  });

  it('emails a link on request where the gallery takes no code, and the link from the email opens the photos', async () => {
    // Prepare: a gallery with the defaults (links only) and a participant with a photo
    process.env.CHECKIN_PAGE_URL = `${pageBase()}/checkin/`;
    const linkStudio = await createCheckinStudio();
    const address = `link-${size}-${linkStudio.slug}@example.com`;
    const imported = await api.call(`/groupshoot/${linkStudio.token}/persons`, {
      method: 'POST',
      headers: linkStudio.serverHeaders,
      body: { persons: [{ name: 'Linda Link', email: address }] },
    });
    const [linda] = imported.body.persons as ImportedParticipant[];
    const objectKey = photoObjectKey({
      tenantId: linkStudio.tenant.tenantId,
      token: linkStudio.token,
      personId: linda!.personId,
      fileName: 'linda.jpg',
    });
    await uploadObject(objectKey, makeJpeg(300, 400));
    await recordPhoto(
      { tenantId: linkStudio.tenant.tenantId, token: linkStudio.token },
      {
        photoId: photoIdOf(objectKey),
        personId: linda!.personId,
        fileName: 'linda.jpg',
        objectKey,
        width: 300,
        height: 400,
        capturedAt: null,
        createdAt: new Date().toISOString(),
      },
    );
    // Act: ask for a link on the page
    await page.goto(`${pageUrl(linkStudio)}#my-photos`);
    await page.waitForSelector('#my-photos:not([hidden])');
    await page.fill('#link-email', address);
    await page.screenshot({ path: join(SCREENSHOTS, `photos-link-1-ask-${size}.png`), fullPage: true });
    await page.click('#link-submit');
    await page.waitForSelector('#link-sent:not([hidden])');
    const confirmation = await page.textContent('#link-sent');
    const codeFormShown = await page.isVisible('#photos-form');
    await page.screenshot({ path: join(SCREENSHOTS, `photos-link-2-sent-${size}.png`), fullPage: true });
    // ...open the email in the SES emulator and follow its link
    let emails = await ses.emailsTo(address);
    for (let tries = 0; emails.length === 0 && tries < 100; tries += 1) emails = await ses.emailsTo(address);
    const link = /https?:\/\/\S+#my-photos\/link\/[A-Za-z0-9_.-]+/.exec(emails[0]!.body.text!)![0];
    await page.goto(link);
    await page.waitForSelector('#photos-result:not([hidden])');
    await page.waitForFunction(allImagesLoaded, '#photos-grid img');
    await page.screenshot({ path: join(SCREENSHOTS, `photos-link-3-photos-${size}.png`), fullPage: true });
    // Assess
    expect(codeFormShown).toBe(false);
    expect(confirmation).toMatch(/^If a participant of this gallery has this email address, we have sent them a link/);
    expect(await shownFiles()).toEqual(['linda.jpg']);
    expect(await page.textContent('#photos-heading')).toBe('Linda Link, your photo:');
    // The link left the address bar, the history and any screenshot of it.
    expect(page.url()).toBe(`${pageBase()}/checkin/#my-photos`);
  });

  it('lets an invited participant check in only through the link emailed to their address', async () => {
    // Prepare: an importedOnly gallery with Ivy imported by HR
    process.env.CHECKIN_PAGE_URL = `${pageBase()}/checkin/`;
    const studio = await createCheckinStudio({ checkinPolicy: { mode: 'importedOnly', allowedEmailDomains: [] } });
    const address = `ivy.${size}@example.com`;
    const imported = await api.call(`/groupshoot/${studio.token}/persons`, {
      method: 'POST',
      headers: studio.serverHeaders,
      body: { persons: [{ name: 'Ivy Invited', email: address }] },
    });
    const [ivy] = imported.body.persons as ImportedParticipant[];
    // Act: check in with the address alone
    await page.goto(pageUrl(studio));
    await page.waitForSelector('#checkin:not([hidden])');
    await fillParticipant(page, studio, address);
    await page.click('#submit');
    await page.waitForSelector('#email-error:not([hidden])');
    const refusal = await page.textContent('#email-error');
    await page.screenshot({ path: join(SCREENSHOTS, `invitation-1-sent-${size}.png`), fullPage: true });
    // ...then follow the link of the email in the SES emulator, and check in again
    let emails = await ses.emailsTo(address);
    for (let tries = 0; emails.length === 0 && tries < 100; tries += 1) emails = await ses.emailsTo(address);
    const link = /https?:\/\/\S+#invitation\/[A-Za-z0-9_.-]+/.exec(emails[0]!.body.text!)![0];
    await page.goto(link);
    await page.waitForSelector('#checkin:not([hidden])');
    const addressAfterLink = page.url();
    await fillParticipant(page, studio, address);
    await page.click('#submit');
    await page.waitForSelector('#done:not([hidden])');
    await page.screenshot({ path: join(SCREENSHOTS, `invitation-2-checked-in-${size}.png`), fullPage: true });
    // Assess
    expect(refusal).toMatch(/^You are on the guest list\. We have emailed you a personal check-in link/);
    expect(addressAfterLink).not.toContain('invitation');
    expect(await page.textContent('#code')).toBe(ivy!.code);
    expect(await personsOf(studio)).toEqual([
      // HR's name stays the person's; what the participant typed is kept as declared.
      expect.objectContaining({
        personId: ivy!.personId,
        name: 'Ivy Invited',
        declared: { name: 'Ada Lovelace' },
        checkedInAt: expect.any(String),
      }),
    ]);
  });

  it('says so for a link that no longer opens anything, and offers a new one', async () => {
    await page.goto(
      photosUrl('my-photos/link/per_01jabcdefghjkmnpqrstvwxyz0.1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'),
    );
    await page.waitForSelector('#photos-error:not([hidden])');
    expect(await page.textContent('#photos-error')).toBe(
      'This link has expired or is not valid. Enter your email address and we send you a new one.',
    );
    expect(await page.isVisible('#link-form')).toBe(true);
    expect(await page.evaluate('document.activeElement.id')).toBe('link-email');
  });
});

describe('check-in page: framing', () => {
  it('refuses to show in a frame of another site: the frame stays empty and the page never calls the API', async () => {
    // Prepare: a page on another local origin (another port) that frames the check-in page.
    const studio = await createCheckinStudio();
    const framer = createServer((_request, response) => {
      response
        .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><title>framer</title><iframe src="${pageUrl(studio)}"></iframe>`);
    });
    await new Promise<void>((resolve) => framer.listen(0, '127.0.0.1', resolve));
    const page = await newWatchedPage({ viewport: VIEWPORTS.desktop });
    const apiRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(api.url)) apiRequests.push(request.url());
    });
    try {
      // Act
      const refused = page.waitForEvent('console', {
        predicate: (message) => message.text().includes("frame-ancestors 'none'"),
      });
      await page.goto(`http://127.0.0.1:${(framer.address() as AddressInfo).port}/`);
      await refused;
      // Assess: Chromium put its error page in the frame; the check-in page's scripts never ran.
      const frame = page.frames().find((candidate) => candidate !== page.mainFrame())!;
      expect(frame.url()).not.toContain('/checkin');
      expect(apiRequests).toEqual([]);
      expect(cspViolations.splice(0).every((violation) => violation.includes('frame-ancestors'))).toBe(true);
    } finally {
      await page.close();
      await new Promise((resolve) => framer.close(resolve));
    }
  });
});
