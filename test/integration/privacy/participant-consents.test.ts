import { randomBytes } from 'node:crypto';
import { photoLinkKey } from '#lib/photos/links/photo-links';
import { signPhotoLink } from '#lib/photos/links/rules/photo-link-token';
import { unsubscribeUrlOf } from '#lib/photos/links/unsubscribe-links';
import { verifyWebhookSignature } from '#lib/client/webhook-signature';
import { getNoticeRecipient } from '#lib/persons/store/photo-notice-marks';
import { erasePersons } from '#lib/privacy/erasure';
import { queryPartition } from '#lib/platform/table/queries';
import { keys } from '../../support/table-keys';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { type LocalEventPipeline, startEventPipeline } from '../../../scripts/local/event-pipeline';
import { type HrExportPipeline, startHrExportPipeline } from '../../../scripts/local/local-hr-export-queue';
import { admin } from '../../support/admin';
import { type CheckinStudio, createCheckinStudio } from '../../support/checkin-gallery';
import { deliverPersonPhoto, unzip } from '../../support/hr-exports';
import { useLocalApi } from '../../support/local-api';
import { makeJpeg } from '../../support/media';
import { useSesEmulator } from '../../support/ses';
import { type WebhookReceiver, startWebhookReceiver } from '../../support/webhook-receiver';

/**
 * A participant's consents after check-in (docs/personal-data.md#consents): manageConsents on
 * POST /group-shoot with a photo link, and the one-click unsubscribe link of every notification
 * email (docs/photos.md#one-click-unsubscribe), over HTTP against the local API with the table's
 * stream, the event pipeline (webhooks, photo-ready emails), the HR export queue and a real SES
 * emulator. Each change takes effect at once, is shown by GET …/persons with its time, and is
 * announced by a signed person.consent_changed event.
 */
process.env.CHECKIN_PAGE_URL = 'https://checkin.example.com/page/';
process.env.PHOTO_LINK_ANSWER_MS = '0';
const api = useLocalApi({ stream: true });
const ses = useSesEmulator();

let events: LocalEventPipeline;
let hrExports: HrExportPipeline;
const receivers: WebhookReceiver[] = [];
beforeAll(async () => {
  process.env.LOCAL_STACK = 'true';
  events = await startEventPipeline({ pollMs: 20, photoNotices: true });
  hrExports = await startHrExportPipeline();
});
afterAll(async () => {
  await events.stop();
  hrExports.stop();
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

/** A gallery that asks for every consent, with a webhook receiver subscribed to every event. */
async function consentStudio() {
  const studio = await createCheckinStudio({
    granularConsents: { face: true, notification: true, hrExport: true },
  });
  const receiver = await startWebhookReceiver();
  receivers.push(receiver);
  const added = await admin('webhook', 'add', '--tenant', studio.slug, '--url', receiver.url, '--json');
  expect(added.code).toBe(0);
  receiver.secret = added.json().signingSecret;
  const scope: GalleryScope = { tenantId: studio.tenant.tenantId, token: studio.token };
  return { studio, receiver, scope };
}

/** A participant who checked in with every consent given, and a photo link of theirs. */
async function consentingParticipant(studio: CheckinStudio, name = `Grace ${randomBytes(3).toString('hex')}`) {
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}@example.com`;
  const checkin = await api.call('/group-shoot', {
    method: 'POST',
    headers: studio.publicHeaders,
    body: studio.validBody({ name, email, faceConsent: true, notificationConsent: true, hrExportConsent: true }),
  });
  expect(checkin.status).toBe(200);
  const personId = checkin.body.personId as string;
  const { photoLink } = signPhotoLink(
    await photoLinkKey(),
    { tenantId: studio.tenant.tenantId, galleryToken: studio.token, personId },
    Date.now(),
  );
  return { personId, email, photoLink };
}

const manage = (studio: CheckinStudio, photoLink: string, change: Record<string, unknown> = {}) =>
  api.call('/group-shoot', {
    method: 'POST',
    headers: studio.publicHeaders,
    body: { action: 'manageConsents', token: studio.token, photoLink, ...change },
  });

async function personOf(studio: CheckinStudio, personId: string) {
  const page = await api.call(`/groupshoot/${studio.token}/persons?limit=100`, { headers: studio.serverHeaders });
  expect(page.status).toBe(200);
  return page.body.persons.find((person: { personId: string }) => person.personId === personId);
}

const stateOf = (answer: { body: { consents: { consent: string; given: boolean | null }[] } }) =>
  Object.fromEntries(answer.body.consents.map((consent) => [consent.consent, consent.given]));

/** The path of an unsubscribe URL under the API's base address (PUBLIC_API_URL), for the local API. */
const pathOfUrl = (url: string) => url.slice(process.env.PUBLIC_API_URL!.length);

describe('POST /group-shoot manageConsents', () => {
  it('lists the consents as the gallery asks for them, withdraws notifications and the HR export at once, and GET …/persons shows each change with its time', async () => {
    // Prepare
    const { studio } = await consentStudio();
    const { personId, photoLink } = await consentingParticipant(studio);
    // Act
    const listed = await manage(studio, photoLink);
    const notifications = await manage(studio, photoLink, { consent: 'notificationConsent', given: false });
    const hrExport = await manage(studio, photoLink, { consent: 'hrExportConsent', given: false });
    const person = await personOf(studio, personId);
    // Assess
    expect([listed.status, stateOf(listed)]).toEqual([
      200,
      { consentGiven: true, faceConsent: true, notificationConsent: true, hrExportConsent: true },
    ]);
    expect(listed.body.consents[0]).toEqual({
      consent: 'consentGiven',
      given: true,
      asked: true,
      changedAt: null,
      changedBy: null,
      withdrawable: false,
      givable: false,
    });
    expect([notifications.status, stateOf(notifications).notificationConsent]).toEqual([200, false]);
    expect(stateOf(hrExport)).toEqual({
      consentGiven: true,
      faceConsent: true,
      notificationConsent: false,
      hrExportConsent: false,
    });
    expect(hrExport.body.consents[3]).toEqual({
      consent: 'hrExportConsent',
      given: false,
      asked: true,
      changedAt: expect.any(String),
      changedBy: 'participant',
      withdrawable: false,
      givable: true,
    });
    expect(person).toEqual(
      expect.objectContaining({
        consentGiven: true,
        faceConsent: true,
        notificationConsent: false,
        hrExportConsent: false,
        consentChanges: {
          faceConsent: null,
          notificationConsent: { given: false, changedAt: expect.any(String), changedBy: 'participant' },
          hrExportConsent: { given: false, changedAt: hrExport.body.consents[3].changedAt, changedBy: 'participant' },
        },
      }),
    );
  });

  it('gives a withdrawn consent again where the gallery asks for it, withdraws the face consent as withdrawFaceConsent does, and refuses the studio consent and the face consent given again', async () => {
    // Prepare
    const { studio } = await consentStudio();
    const { personId, photoLink } = await consentingParticipant(studio);
    await manage(studio, photoLink, { consent: 'notificationConsent', given: false });
    // Act
    const givenAgain = await manage(studio, photoLink, { consent: 'notificationConsent', given: true });
    const face = await manage(studio, photoLink, { consent: 'faceConsent', given: false });
    const studioConsent = await manage(studio, photoLink, { consent: 'consentGiven', given: false });
    const faceAgain = await manage(studio, photoLink, { consent: 'faceConsent', given: true });
    const withoutValue = await manage(studio, photoLink, { consent: 'hrExportConsent' });
    const withoutConsent = await manage(studio, photoLink, { given: false });
    const photos = await api.call('/group-shoot', {
      method: 'POST',
      headers: studio.publicHeaders,
      body: { action: 'photosByLink', token: studio.token, photoLink },
    });
    // Assess
    expect(stateOf(givenAgain).notificationConsent).toBe(true);
    expect(stateOf(face).faceConsent).toBe(false);
    expect(photos.body.faceConsent).toBe(false);
    expect([studioConsent.status, studioConsent.body.error, studioConsent.body.field]).toEqual([
      400,
      'invalid_field',
      'consent',
    ]);
    expect(studioConsent.body.message).toContain('erasure');
    expect([faceAgain.status, faceAgain.body.error, faceAgain.body.field]).toEqual([400, 'invalid_field', 'given']);
    expect([withoutValue.status, withoutValue.body.field]).toEqual([400, 'given']);
    expect([withoutConsent.status, withoutConsent.body.field]).toEqual([400, 'consent']);
    expect(withoutConsent.body.message).toMatch(/^consent is required with given/);
    expect((await personOf(studio, personId)).consentGiven).toBe(true);
  });

  it('refuses a link of another gallery or a forged one as photosByLink does', async () => {
    // Prepare
    const { studio } = await consentStudio();
    const { personId } = await consentingParticipant(studio);
    const other = await consentStudio();
    const foreign = signPhotoLink(
      await photoLinkKey(),
      { tenantId: other.studio.tenant.tenantId, galleryToken: other.studio.token, personId },
      Date.now(),
    ).photoLink;
    // Act
    const answers = [
      await manage(studio, foreign, { consent: 'notificationConsent', given: false }),
      await manage(studio, `${personId}.9999999999.${'A'.repeat(43)}`, {
        consent: 'notificationConsent',
        given: false,
      }),
    ];
    // Assess
    expect(answers.map((answer) => [answer.status, answer.body.error])).toEqual([
      [403, 'photo_link_invalid'],
      [403, 'photo_link_invalid'],
    ]);
    expect((await personOf(studio, personId)).notificationConsent).toBe(true);
  });
});

describe('what a withdrawal does', () => {
  it('sends a signed person.consent_changed event per change that names the consent, not the person; a repeated withdrawal sends none', async () => {
    // Prepare
    const { studio, receiver } = await consentStudio();
    const { personId, photoLink } = await consentingParticipant(studio);
    await events.settled();
    // Act
    await manage(studio, photoLink, { consent: 'hrExportConsent', given: false });
    await manage(studio, photoLink, { consent: 'hrExportConsent', given: false });
    await manage(studio, photoLink, { consent: 'notificationConsent', given: false });
    await events.settled();
    // Assess
    const changes = receiver.received.filter((delivery) => delivery.event.type === 'person.consent_changed');
    expect(changes.map((delivery) => delivery.event.data)).toEqual([
      { personId, consent: 'hrExportConsent', given: false, changedBy: 'participant' },
      { personId, consent: 'notificationConsent', given: false, changedBy: 'participant' },
    ]);
    for (const delivery of changes) {
      expect(() =>
        verifyWebhookSignature(delivery.body, delivery.headers['groupshoot-signature'] as string, receiver.secret),
      ).not.toThrow();
      expect(delivery.body).not.toContain('@example.com');
      expect(delivery.body).not.toContain('Grace');
    }
    expect(receiver.refused).toEqual([]);
  });

  it('sends no photo-ready email once notifications are withdrawn', async () => {
    // Prepare
    const { studio, scope } = await consentStudio();
    const withdrawn = await consentingParticipant(studio);
    const notified = await consentingParticipant(studio);
    await manage(studio, withdrawn.photoLink, { consent: 'notificationConsent', given: false });
    // Act: both get their first photos; the one still consenting comes after on the one stream
    await deliverPersonPhoto(scope, withdrawn.personId, 'a.jpg', makeJpeg(16, 12));
    await deliverPersonPhoto(scope, notified.personId, 'b.jpg', makeJpeg(16, 12));
    await ses.waitForEmailsTo(notified.email, 1);
    await events.settled();
    // Assess
    expect(await ses.emailsTo(notified.email)).toHaveLength(1);
    expect(await ses.emailsTo(withdrawn.email)).toEqual([]);
    expect((await getNoticeRecipient(scope, withdrawn.personId))!.state).toEqual({});
  });

  it('leaves the person out of the next HR export', async () => {
    // Prepare
    const { studio, scope } = await consentStudio();
    const staying = await consentingParticipant(studio, 'Ada Stays');
    const leaving = await consentingParticipant(studio, 'Grace Leaves');
    await deliverPersonPhoto(scope, staying.personId, 'a.jpg', makeJpeg(64, 64));
    await deliverPersonPhoto(scope, leaving.personId, 'b.jpg', makeJpeg(64, 64));
    // Act
    await manage(studio, leaving.photoLink, { consent: 'hrExportConsent', given: false });
    const created = await api.call(`/groupshoot/${studio.token}/hr-exports`, {
      method: 'POST',
      headers: studio.serverHeaders,
      body: {},
    });
    await hrExports.settled();
    const ready = await api.call(`/groupshoot/${studio.token}/hr-exports/${created.body.exportId}`, {
      headers: studio.serverHeaders,
    });
    // Assess
    expect([ready.status, ready.body.status]).toEqual([200, 'ready']);
    expect([ready.body.report.exported, ready.body.report.skipped.noConsent]).toEqual([1, 1]);
    const files = await unzip(Buffer.from(await (await fetch(ready.body.downloadUrl)).arrayBuffer()));
    const manifest = files.get('manifest.csv')!.toString('utf8');
    expect(manifest).toContain(staying.personId);
    expect(manifest).not.toContain(leaving.personId);
  });
});

describe('one-click unsubscribe (RFC 8058)', () => {
  it('puts List-Unsubscribe and List-Unsubscribe-Post on the photo link email, and its one-click POST withdraws notificationConsent', async () => {
    // Prepare
    const { studio, receiver } = await consentStudio();
    const { personId, email } = await consentingParticipant(studio);
    await api.call('/group-shoot', {
      method: 'POST',
      headers: studio.publicHeaders,
      body: { action: 'sendPhotoLink', token: studio.token, email },
    });
    const [sent] = await ses.waitForEmailsTo(email, 1);
    const header = (name: string) => sent!.headers?.find((candidate) => candidate.name === name)?.value;
    const url = /^<(https:\/\/[^>]+)>$/.exec(header('List-Unsubscribe') ?? '')?.[1];
    // Act: as a mail provider sends it, without cookies or any header of ours
    const page = await fetch(`${api.url}${pathOfUrl(url!)}`);
    const pageText = await page.text();
    const stillConsenting = (await personOf(studio, personId)).notificationConsent;
    const posted = await fetch(`${api.url}${pathOfUrl(url!)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    const again = await fetch(`${api.url}${pathOfUrl(url!)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' },
      body: 'List-Unsubscribe=One-Click',
    });
    await events.settled();
    // Assess
    expect(header('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(url).toMatch(/^https:\/\/api\.groupshoot\.example\/v1\/unsubscribe\/ten_/);
    expect(sent!.body.text).toContain(url);
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect(pageText).toContain('<input type="hidden" name="List-Unsubscribe" value="One-Click">');
    expect(stillConsenting).toBe(true);
    expect([posted.status, await posted.json()]).toEqual([
      200,
      { ok: true, notificationConsent: false, changed: true, requestId: expect.any(String) },
    ]);
    expect([again.status, await again.text()]).toEqual([200, expect.stringContaining('role="status"')]);
    expect((await personOf(studio, personId)).notificationConsent).toBe(false);
    expect(
      receiver.received
        .filter((delivery) => delivery.event.type === 'person.consent_changed')
        .map((delivery) => delivery.event.data),
    ).toEqual([{ personId, consent: 'notificationConsent', given: false, changedBy: 'participant' }]);
  });

  it('cannot open the photos, pick one or change another consent: the token is for this one purpose; a photo link is no unsubscribe link', async () => {
    // Prepare
    const { studio, scope } = await consentStudio();
    const { personId, photoLink } = await consentingParticipant(studio);
    const photoId = await deliverPersonPhoto(scope, personId, 'a.jpg', makeJpeg(16, 12));
    const url = await unsubscribeUrlOf(scope, personId);
    const link = url.slice(url.lastIndexOf('/') + 1);
    const personToken = link.split('.').slice(2).join('.');
    const post = (body: Record<string, unknown>) =>
      api.call('/group-shoot', {
        method: 'POST',
        headers: studio.publicHeaders,
        body: { token: studio.token, ...body },
      });
    // Act
    const answers = [
      await post({ action: 'photosByLink', photoLink: link }),
      await post({ action: 'photosByLink', photoLink: personToken }),
      await post({ action: 'pickPhoto', photoId, photoLink: personToken }),
      await post({ action: 'manageConsents', photoLink: personToken, consent: 'hrExportConsent', given: false }),
      await post({ action: 'withdrawFaceConsent', photoLink: personToken }),
    ];
    const photoLinkAsUnsubscribe = await api.call(`/unsubscribe/${scope.tenantId}.${scope.token}.${photoLink}`, {
      method: 'POST',
      body: 'List-Unsubscribe=One-Click',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    const withoutOneClick = await api.call(`/unsubscribe/${link}`, {
      method: 'POST',
      body: 'unsubscribe=yes',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    // Assess
    expect(answers.map((answer) => [answer.status, answer.body.error])).toEqual([
      [400, 'invalid_field'],
      [403, 'photo_link_invalid'],
      [403, 'photo_link_invalid'],
      [403, 'photo_link_invalid'],
      [403, 'photo_link_invalid'],
    ]);
    expect([photoLinkAsUnsubscribe.status, photoLinkAsUnsubscribe.body.error]).toEqual([
      403,
      'unsubscribe_link_invalid',
    ]);
    expect([withoutOneClick.status, withoutOneClick.body.error, withoutOneClick.body.field]).toEqual([
      400,
      'invalid_field',
      'List-Unsubscribe',
    ]);
    const person = await personOf(studio, personId);
    expect([person.notificationConsent, person.hrExportConsent, person.faceConsent]).toEqual([true, true, true]);
  });
});

describe('the studio sees it', () => {
  it('lists the consents with the time and author of each change in npm run admin -- person show', async () => {
    // Prepare
    const { studio } = await consentStudio();
    const { personId, photoLink } = await consentingParticipant(studio);
    const changed = await manage(studio, photoLink, { consent: 'notificationConsent', given: false });
    // Act
    const show = (...options: string[]) =>
      admin('person', 'show', '--tenant', studio.slug, '--gallery', studio.token, '--person', personId, ...options);
    const shown = await show();
    const json = await show('--json');
    // Assess
    const changedAt = changed.body.consents[2].changedAt as string;
    expect(shown.code).toBe(0);
    expect(shown.out).toMatch(new RegExp(`notificationConsent +not given +yes +${changedAt} +participant`));
    expect(shown.out).toMatch(/hrExportConsent +given +yes +at check-in /);
    expect(json.json().consents[2]).toEqual(
      expect.objectContaining({ given: false, changedAt, changedBy: 'participant' }),
    );
  });
});

describe('erasure', () => {
  it('removes the consent change records with the person and the person.consent_changed events with theirs, and the receipt counts both', async () => {
    // Prepare
    const { studio, scope } = await consentStudio();
    const { personId, photoLink } = await consentingParticipant(studio);
    await manage(studio, photoLink, { consent: 'notificationConsent', given: false });
    await manage(studio, photoLink, { consent: 'hrExportConsent', given: false });
    const changeEvents = async () =>
      (await queryPartition(keys.eventsOfGallery(scope.tenantId, scope.token))).filter(
        (item) => item.type === 'person.consent_changed' && item.personId === personId,
      );
    const before = await changeEvents();
    // Act
    const dryRun = await erasePersons(scope, { personId }, { dryRun: true });
    const receipt = await erasePersons(scope, { personId });
    // Assess
    expect(before).toHaveLength(2);
    expect([dryRun.consentChanges, receipt.consentChanges]).toEqual([2, 2]);
    expect(receipt.events).toBeGreaterThanOrEqual(2);
    expect(await changeEvents()).toEqual([]);
    expect(await personOf(studio, personId)).toBeUndefined();
  });
});
