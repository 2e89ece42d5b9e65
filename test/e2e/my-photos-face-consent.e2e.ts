import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { getReferenceFace } from '#lib/faces/store/reference-faces';
import { getPerson } from '#lib/persons/store/persons';
import { photoLinkKey } from '#lib/photos/links/photo-links';
import { signPhotoLink } from '#lib/photos/links/rules/photo-link-token';
import { useLocalApi } from '../support/local-api';
import { type CheckinStudio, createCheckinStudio } from '../support/checkin-gallery';
import { storeConfirmedReferenceFace } from '../support/face-galleries';
import { givePhoto } from '../support/photo-participants';
import { makeJpeg } from '../support/media';
import { keys } from '../support/table-keys';
import {
  SCREENSHOTS,
  VIEWPORTS,
  axeViolations,
  checkinPageUrl,
  focusedId,
  useCheckinPageBrowser,
} from '../support/checkin-page-browser';

/**
 * My photos: a participant who gave face consent withdraws it on the page a photo link opens
 * (docs/checkin-page.md#my-photos), with a confirmation, and the studio's data says so: the
 * consent is false and the reference face gone.
 */
const api = useLocalApi({ checkinPage: true });
const { newWatchedPage } = useCheckinPageBrowser();

/** An imported participant of the studio with a photo, a face consent and a reference face, and their photo link. */
async function consentingParticipantOf(studio: CheckinStudio, name: string, tag: string) {
  const imported = await api.call(`/groupshoot/${studio.token}/persons`, {
    method: 'POST',
    headers: studio.serverHeaders,
    body: { persons: [{ name, email: `${name.split(' ')[0]!.toLowerCase()}-${tag}@example.com` }] },
  });
  const personId: string = imported.body.persons[0].personId;
  const scope = { tenantId: studio.tenant.tenantId, token: studio.token };
  await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.person(scope.tenantId, scope.token, personId),
      UpdateExpression: 'SET consents.faceConsent = :yes',
      ExpressionAttributeValues: { ':yes': true },
    }),
  );
  await storeConfirmedReferenceFace(scope, personId);
  await givePhoto(studio, studio.token, personId, 'portrait.jpg', makeJpeg(300, 400));
  const { photoLink } = signPhotoLink(
    await photoLinkKey(),
    { tenantId: scope.tenantId, galleryToken: scope.token, personId },
    Date.now(),
  );
  return { scope, personId, photoLink };
}

/** The page a photo link opens, once the photos are shown. */
async function openPhotoLink(page: Page, studio: CheckinStudio, photoLink: string): Promise<void> {
  await page.goto(`${checkinPageUrl(api.url, studio)}#my-photos/link/${photoLink}`);
  await page.waitForSelector('#photos-result:not([hidden])');
}

describe.each(Object.entries(VIEWPORTS))('check-in page: withdrawing face consent on a %s', (size, viewport) => {
  let page: Page;
  let studio: CheckinStudio;

  beforeAll(async () => {
    studio = await createCheckinStudio();
  });
  beforeEach(async () => {
    page = await newWatchedPage({ viewport });
  });
  afterEach(async () => {
    await page.close();
  });

  const consentingParticipant = (name: string) => consentingParticipantOf(studio, name, size);
  const openLink = (photoLink: string) => openPhotoLink(page, studio, photoLink);

  it('withdraws after a confirmation, says so, and the consent is false and the reference face gone on the server', async () => {
    // Prepare
    const { scope, personId, photoLink } = await consentingParticipant('Wanda Withdraw');
    await openLink(photoLink);
    await page.waitForSelector('#face-consent:not([hidden])');
    const control = await page.textContent('#face-withdraw');
    // Act: the control asks first; Cancel withdraws nothing
    await page.click('#face-withdraw');
    await page.waitForSelector('#face-withdraw-confirm:not([hidden])');
    const askedWithFocusOn = await focusedId(page);
    const controlWhileAsked = await page.isVisible('#face-withdraw');
    const questionViolations = await axeViolations(page);
    await page.screenshot({ path: join(SCREENSHOTS, `photos-face-1-question-${size}.png`), fullPage: true });
    await page.click('#face-withdraw-no');
    const cancelledWithFocusOn = await focusedId(page);
    const afterCancel = (await getPerson(scope, personId, { consistent: true }))?.consents.faceConsent;
    // ...then withdraws for real
    await page.click('#face-withdraw');
    await page.click('#face-withdraw-yes');
    await page.waitForSelector('#face-withdrawn:not([hidden])');
    await page.screenshot({ path: join(SCREENSHOTS, `photos-face-2-withdrawn-${size}.png`), fullPage: true });
    // Assess
    expect(control).toBe('Stop using my face to sort my photos');
    expect([askedWithFocusOn, controlWhileAsked]).toEqual(['face-withdraw-question', false]);
    expect(questionViolations).toEqual([]);
    expect([cancelledWithFocusOn, afterCancel]).toEqual(['face-withdraw', true]);
    expect(await page.textContent('#face-withdrawn')).toBe(
      'Done: your face is no longer used to sort your photos, and your face template has been deleted. Your photos stay here.',
    );
    expect(await focusedId(page)).toBe('face-withdrawn');
    expect(await page.isVisible('#face-consent')).toBe(false);
    expect(await axeViolations(page)).toEqual([]);
    expect((await getPerson(scope, personId, { consistent: true }))?.consents.faceConsent).toBe(false);
    expect(await getReferenceFace(scope, personId)).toBeUndefined();
    // Opened again, the photos offer nothing to withdraw.
    await openLink(photoLink);
    expect(await page.isVisible('#face-consent')).toBe(false);
  });

  it('offers no withdrawal to a participant who gave no face consent', async () => {
    // Prepare: imported by HR, never asked
    const imported = await api.call(`/groupshoot/${studio.token}/persons`, {
      method: 'POST',
      headers: studio.serverHeaders,
      body: { persons: [{ name: 'Nora Never' }] },
    });
    const personId: string = imported.body.persons[0].personId;
    const { photoLink } = signPhotoLink(
      await photoLinkKey(),
      { tenantId: studio.tenant.tenantId, galleryToken: studio.token, personId },
      Date.now(),
    );
    // Act
    await openLink(photoLink);
    // Assess
    expect(await page.isVisible('#face-consent')).toBe(false);
    expect(await page.isVisible('#face-withdrawn')).toBe(false);
  });
});

describe.each([
  ['de-DE', 'Mein Gesicht nicht mehr zum Sortieren meiner Fotos verwenden', 'Abbrechen'],
  ['fr-FR', 'Ne plus utiliser mon visage pour trier mes photos', 'Annuler'],
])('check-in page: withdrawing face consent in %s', (locale, control, cancel) => {
  it('names the control and its question in the language, and they pass axe', async () => {
    // Prepare
    const studio = await createCheckinStudio();
    const { photoLink } = await consentingParticipantOf(studio, 'Lena Sprache', locale);
    const page = await newWatchedPage({ viewport: VIEWPORTS.phone, locale });
    await openPhotoLink(page, studio, photoLink);
    // Act
    await page.click('#face-withdraw');
    await page.waitForSelector('#face-withdraw-confirm:not([hidden])');
    // Assess
    expect([await page.textContent('#face-withdraw'), await page.textContent('#face-withdraw-no')]).toEqual([
      control,
      cancel,
    ]);
    expect(await axeViolations(page)).toEqual([]);
  });
});
