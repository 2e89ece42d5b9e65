import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { photoLinkKey } from '#lib/photos/links/photo-links';
import { signPhotoLink } from '#lib/photos/links/rules/photo-link-token';
import { useLocalApi } from '../support/local-api';
import { type CheckinStudio, createCheckinStudio } from '../support/checkin-gallery';
import { givePhoto } from '../support/photo-participants';
import { makeJpeg } from '../support/media';
import {
  SCREENSHOTS,
  VIEWPORTS,
  axeViolations,
  checkinPageUrl,
  focusedId,
  useCheckinPageBrowser,
} from '../support/checkin-page-browser';

/**
 * My photos: the participant's consents on the page a photo link opens
 * (docs/checkin-page.md#my-photos): each given one withdrawn with one button, in the page's
 * language; GET …/persons says the same, with the time of each change.
 */
const api = useLocalApi({ checkinPage: true });
const { newWatchedPage } = useCheckinPageBrowser();

/** A participant who checked in with every consent the gallery asks for, with a photo, and their photo link. */
async function consentingParticipantOf(studio: CheckinStudio, name: string) {
  const checkin = await api.call('/group-shoot', {
    method: 'POST',
    headers: studio.publicHeaders,
    body: studio.validBody({ name, faceConsent: true, notificationConsent: true, hrExportConsent: true }),
  });
  expect(checkin.status).toBe(200);
  const personId: string = checkin.body.personId;
  await givePhoto(studio, studio.token, personId, 'portrait.jpg', makeJpeg(300, 400));
  const { photoLink } = signPhotoLink(
    await photoLinkKey(),
    { tenantId: studio.tenant.tenantId, galleryToken: studio.token, personId },
    Date.now(),
  );
  return { personId, photoLink };
}

async function personOf(studio: CheckinStudio, personId: string) {
  const page = await api.call(`/groupshoot/${studio.token}/persons?limit=100`, { headers: studio.serverHeaders });
  return page.body.persons.find((person: { personId: string }) => person.personId === personId);
}

/** Each shown consent's label and state, as the list reads. */
async function listed(page: Page): Promise<string[][]> {
  return page.$$eval('#consents-list li', (items) =>
    items.map((item) => [
      item.getAttribute('data-consent') ?? '',
      item.querySelector('.consent-state')?.textContent ?? '',
      item.querySelector('button')?.textContent ?? '',
    ]),
  );
}

describe.each([
  [
    'en-GB',
    {
      studioNote: 'This consent cannot be withdrawn here',
      given: 'Given',
      withdrawnSince: 'Withdrawn since',
      withdraw: 'Withdraw',
      giveAgain: 'Give again',
      saved: 'Saved: your choice applies from now on.',
    },
  ],
  [
    'de-DE',
    {
      studioNote: 'Diese Einwilligung können Sie hier nicht widerrufen',
      given: 'Erteilt',
      withdrawnSince: 'Widerrufen seit',
      withdraw: 'Widerrufen',
      giveAgain: 'Wieder erteilen',
      saved: 'Gespeichert: Ihre Wahl gilt ab sofort.',
    },
  ],
])('check-in page: the participant withdraws consents in %s', (locale, words) => {
  let studio: CheckinStudio;
  beforeAll(async () => {
    studio = await createCheckinStudio({ granularConsents: { face: true, notification: true, hrExport: true } });
  });

  it('withdraws notifications and the HR export with one click each; the page and GET …/persons show the new state', async () => {
    // Prepare
    const { personId, photoLink } = await consentingParticipantOf(studio, `Nadia ${locale}`);
    const page = await newWatchedPage({ viewport: VIEWPORTS.phone, locale });
    await page.goto(`${checkinPageUrl(api.url, studio)}#my-photos/link/${photoLink}`);
    await page.waitForSelector('#consents:not([hidden])');
    const before = await listed(page);
    const studioNote = await page.textContent('#consents-list li[data-consent="consentGiven"] .hint');
    const listViolations = await axeViolations(page);
    // Act
    await page.click('#consent-notificationConsent-change');
    await page.locator('#consent-notificationConsent-state', { hasText: words.withdrawnSince }).waitFor();
    const savedWithFocusOn = await focusedId(page);
    const status = await page.textContent('#status');
    await page.click('#consent-hrExportConsent-change');
    await page.locator('#consent-hrExportConsent-state', { hasText: words.withdrawnSince }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, `photos-consents-withdrawn-${locale}.png`), fullPage: true });
    const after = await listed(page);
    const person = await personOf(studio, personId);
    // Opened again, the page shows the same.
    await page.goto(`${checkinPageUrl(api.url, studio)}#my-photos/link/${photoLink}`);
    await page.waitForSelector('#consents:not([hidden])');
    const reopened = await listed(page);
    // Assess
    expect(before).toEqual([
      ['consentGiven', words.given, ''],
      ['faceConsent', words.given, words.withdraw],
      ['notificationConsent', words.given, words.withdraw],
      ['hrExportConsent', words.given, words.withdraw],
    ]);
    expect(studioNote).toContain(words.studioNote);
    expect(listViolations).toEqual([]);
    expect([savedWithFocusOn, status]).toEqual(['consent-notificationConsent-change', words.saved]);
    expect(after.map(([consent, state, button]) => [consent, state!.startsWith(words.withdrawnSince), button])).toEqual(
      [
        ['consentGiven', false, ''],
        ['faceConsent', false, words.withdraw],
        ['notificationConsent', true, words.giveAgain],
        ['hrExportConsent', true, words.giveAgain],
      ],
    );
    expect(await axeViolations(page)).toEqual([]);
    expect(reopened).toEqual(after);
    expect(person).toEqual(
      expect.objectContaining({
        consentGiven: true,
        faceConsent: true,
        notificationConsent: false,
        hrExportConsent: false,
        consentChanges: {
          faceConsent: null,
          notificationConsent: { given: false, changedAt: expect.any(String), changedBy: 'participant' },
          hrExportConsent: { given: false, changedAt: expect.any(String), changedBy: 'participant' },
        },
      }),
    );
  });
});
