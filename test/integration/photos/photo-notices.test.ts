import { randomBytes } from 'node:crypto';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { handler as sendPhotoNotices } from '../../../functions/photos/notices/send-photo-notices';
import { type LocalEventPipeline, startEventPipeline } from '../../../scripts/local/event-pipeline';
import { type EmailSender, emailSender, useEmailSender } from '#lib/photos/notices/adapters/email-sender';
import { now, resetClock, setClock } from '#lib/platform/clock';
import { insertPersonsWithCodes } from '#lib/persons/store/access-code-allocation';
import { createGallery } from '#lib/galleries/store/galleries';
import { keys } from '../../support/table-keys';
import { claimPhotoNotice, getNoticeRecipient } from '#lib/persons/store/photo-notice-marks';
import { recordPhoto } from '#lib/photos/common/store/photos';
import { queryPartition } from '#lib/platform/table/queries';
import { createTenant } from '#lib/tenants/store/tenants';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { NO_CONSENTS, type Person, type PersonConsents } from '#lib/persons/rules/person-model';
import { PHOTO_NOTICE_CLAIM_MS } from '#lib/persons/rules/photo-notice-state';
import { PHOTO_LINK_LIFETIME_MS, verifyPhotoLink } from '#lib/photos/links/rules/photo-link-token';
import { dateInWords } from '#lib/photos/notices/rules/email-messages';
import type { Language } from '#lib/platform/languages';
import { photoLinkOfEmail } from '../../support/photo-participants';
import { samplePerson } from '../../support/event-samples';
import { uniqueSlug } from '../../support/factories';
import { useSesEmulator } from '../../support/ses';
import { useTestTable } from '../../support/test-table';

/**
 * Photo-ready emails end to end on the local stack: photos recorded as the assignment records
 * them (recordPhoto writes the photos.assigned event), DynamoDB Local's stream to the function,
 * the function to a real SES emulator (aws-ses-v2-local), whose inbox the tests read.
 */
const CHECKIN_PAGE = 'https://checkin.example.com/page/';
process.env.CHECKIN_PAGE_URL = CHECKIN_PAGE;
useTestTable({ stream: true });
const ses = useSesEmulator();

let pipeline: LocalEventPipeline;
let clockOffset = 0;
beforeAll(async () => {
  process.env.LOCAL_STACK = 'true';
  setClock(() => Date.now() + clockOffset);
  pipeline = await startEventPipeline({ pollMs: 20, photoNotices: true });
});
afterAll(async () => {
  await pipeline.stop();
  resetClock();
});

/** A tenant and a gallery that asks for the notification consent, or not. */
async function createStudio(options: { asksForNotification: boolean; defaultLanguage?: Language }) {
  const slug = uniqueSlug('notice');
  const tenant = await createTenant({ slug, name: `Studio ${slug}`, plan: 'creator' });
  const gallery = await createGallery(tenant.tenantId, {
    galleryName: 'Spring portraits',
    isGroupShoot: true,
    selfieEnabled: false,
    selfieRequired: false,
    consentRequired: false,
    showShootingDaySelector: false,
    granularConsents: { face: false, notification: options.asksForNotification, hrExport: false },
    defaultLanguage: options.defaultLanguage,
  });
  return { slug, tenant, scope: { tenantId: tenant.tenantId, token: gallery.token } satisfies GalleryScope };
}

const uniqueEmail = () => `person-${randomBytes(4).toString('hex')}@example.com`;

async function storePerson(
  scope: GalleryScope,
  options: { email: string | null; notificationConsent: boolean | null; language?: Language },
): Promise<Person> {
  const consents: PersonConsents = { ...NO_CONSENTS, notificationConsent: options.notificationConsent };
  const draft = samplePerson({
    name: 'Grace <Hopper>',
    email: options.email,
    employeeId: null,
    department: null,
    shootingDayId: null,
    consents,
    source: 'checkin',
    createdAt: new Date(now()).toISOString(),
    language: options.language,
  });
  const { written } = await insertPersonsWithCodes(scope, [draft]);
  return written[0]!;
}

let photoNumber = 0;
async function recordPhotos(scope: GalleryScope, personId: string, count: number): Promise<void> {
  for (let index = 0; index < count; index += 1) {
    photoNumber += 1;
    const fileName = `IMG_${String(photoNumber).padStart(4, '0')}.jpg`;
    const outcome = await recordPhoto(scope, {
      photoId: `pho_${randomBytes(12).toString('hex')}`,
      personId,
      fileName,
      objectKey: `photos/${scope.tenantId}/${scope.token}/${personId}/${fileName}`,
      width: 64,
      height: 48,
      capturedAt: null,
      createdAt: new Date(now()).toISOString(),
    });
    expect(outcome).toBe('recorded');
  }
}

/**
 * The emails to the address once there are `count` of them (the stream is polled, so they come a
 * moment after the write); fails after 15 s.
 */
async function waitForEmails(address: string, count: number) {
  const until = Date.now() + 15_000;
  for (;;) {
    const emails = await ses.emailsTo(address);
    if (emails.length >= count || Date.now() > until) return emails;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until `condition` holds; fails after 15 s. */
async function waitUntil(condition: () => boolean): Promise<void> {
  const until = Date.now() + 15_000;
  while (!condition()) {
    if (Date.now() > until) throw new Error('The condition did not come true within 15 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Waits until everything written so far has been through the email function: a consenting
 * person's photo, written now, comes after it on the table's one stream, and its email is sent.
 */
async function allNoticesHandled(): Promise<void> {
  await pipeline.settled();
  const studio = await createStudio({ asksForNotification: true });
  const address = uniqueEmail();
  const person = await storePerson(studio.scope, { email: address, notificationConsent: true });
  await recordPhotos(studio.scope, person.personId, 1);
  expect(await waitForEmails(address, 1)).toHaveLength(1);
}

/** The person's photos.assigned event items, as the stream carries them, in a stream event as Lambda hands it over. */
async function redeliveredRecords(scope: GalleryScope, personId: string): Promise<DynamoDBStreamEvent> {
  const items = (await queryPartition(keys.eventsOfGallery(scope.tenantId, scope.token))).filter(
    (item) => item.type === 'photos.assigned' && item.personId === personId,
  );
  expect(items.length).toBeGreaterThan(0);
  return {
    Records: items.map((item, index) => ({
      eventName: 'MODIFY',
      dynamodb: {
        SequenceNumber: String(index + 1),
        Keys: marshall({ pk: item.pk, sk: item.sk }) as never,
        NewImage: marshall(item) as never,
      },
    })),
  };
}

describe('photo-ready emails', () => {
  it('sends one email to a person who consented, with a photo link of theirs and no access code, when the first photos arrive', async () => {
    // Prepare
    const studio = await createStudio({ asksForNotification: true });
    const address = uniqueEmail();
    const person = await storePerson(studio.scope, { email: address, notificationConsent: true });
    // Act
    await recordPhotos(studio.scope, person.personId, 3);
    await waitForEmails(address, 1);
    await allNoticesHandled();
    // Assess
    const emails = await ses.emailsTo(address);
    expect(emails).toHaveLength(1);
    const [email] = emails;
    const photoLink = photoLinkOfEmail(email!.body.text!);
    const link = `${CHECKIN_PAGE}?tenant=${studio.slug}&token=${studio.scope.token}#my-photos/link/${photoLink}`;
    expect(email!.from).toBe('photos@groupshoot.example');
    expect(email!.subject).toBe('Your photos are ready: Spring portraits');
    expect(email!.body.text).toContain(link);
    expect(
      verifyPhotoLink(
        process.env.PHOTO_LINK_KEY!,
        { tenantId: studio.scope.tenantId, galleryToken: studio.scope.token },
        photoLink,
        now(),
      ),
    ).toBe(person.personId);
    expect(email!.body.text).toContain(
      `works until ${dateInWords(new Date(now() + PHOTO_LINK_LIFETIME_MS).toISOString(), 'en')}.`,
    );
    expect(email!.body.text).not.toContain(person.code);
    expect(email!.body.text).toContain('Hello Grace <Hopper>,\n\nYour photos from Spring portraits');
    expect(email!.body.html).toContain(`<a href="${link.replace(/&/g, '&#38;')}">`);
    expect(email!.body.html).toContain('Hello Grace &#60;Hopper&#62;,');
    expect(email!.body.html).not.toContain('<Hopper>');
    // One-click unsubscribe (RFC 8058), as on every notification email
    const header = (name: string) => email!.headers?.find((candidate) => candidate.name === name)?.value;
    expect(header('List-Unsubscribe')).toMatch(/^<https:\/\/[^>]+\/v1\/unsubscribe\/[^>]+>$/);
    expect(header('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const stored = await getNoticeRecipient(studio.scope, person.personId);
    expect(stored!.state).toEqual({ sentAt: expect.any(String) });
  });

  it.each([
    [
      "the person's language (German) before the gallery's (French)",
      'de',
      'fr',
      'Ihre Fotos sind fertig: Spring portraits',
      'Guten Tag Grace <Hopper>,\n\nIhre Fotos von',
    ],
    [
      "the gallery's language (French) for a person without one",
      undefined,
      'fr',
      'Vos photos sont prêtes : Spring portraits',
      'Bonjour Grace <Hopper>,\n\nVos photos de',
    ],
  ] as const)('writes in %s', async (_case, language, defaultLanguage, subject, opening) => {
    // Prepare
    const studio = await createStudio({ asksForNotification: true, defaultLanguage });
    const address = uniqueEmail();
    const person = await storePerson(studio.scope, { email: address, notificationConsent: true, language });
    // Act
    await recordPhotos(studio.scope, person.personId, 1);
    const [email] = await waitForEmails(address, 1);
    // Assess
    expect(email!.subject).toBe(subject);
    expect(email!.body.text).toContain(opening);
  });

  it('sends no second email for photos added later, in a later window, or for a redelivered stream record', async () => {
    // Prepare
    const studio = await createStudio({ asksForNotification: true });
    const address = uniqueEmail();
    const person = await storePerson(studio.scope, { email: address, notificationConsent: true });
    await recordPhotos(studio.scope, person.personId, 1);
    expect(await waitForEmails(address, 1)).toHaveLength(1);
    // Act: more photos in the same window (MODIFY of its event) and in a window 10 minutes later (a new event).
    await recordPhotos(studio.scope, person.personId, 2);
    clockOffset += 10 * 60_000;
    await recordPhotos(studio.scope, person.personId, 2);
    await allNoticesHandled();
    const redelivered = await sendPhotoNotices(await redeliveredRecords(studio.scope, person.personId));
    // Assess
    expect(redelivered).toEqual({ batchItemFailures: [] });
    expect(await ses.emailsTo(address)).toHaveLength(1);
  });

  it.each([
    ['declined', false],
    ['was never asked', null],
  ])('sends nothing to a person who %s (notificationConsent %s)', async (_, notificationConsent) => {
    // Prepare
    const studio = await createStudio({ asksForNotification: true });
    const address = uniqueEmail();
    const person = await storePerson(studio.scope, { email: address, notificationConsent });
    // Act
    await recordPhotos(studio.scope, person.personId, 2);
    await allNoticesHandled();
    await sendPhotoNotices(await redeliveredRecords(studio.scope, person.personId));
    // Assess
    expect(await ses.emailsTo(address)).toEqual([]);
    expect((await getNoticeRecipient(studio.scope, person.personId))!.state).toEqual({});
  });

  it('sends nothing in a gallery that does not ask for the notification consent, whatever the person item says', async () => {
    // Prepare
    const studio = await createStudio({ asksForNotification: false });
    const address = uniqueEmail();
    const person = await storePerson(studio.scope, { email: address, notificationConsent: true });
    // Act
    await recordPhotos(studio.scope, person.personId, 2);
    await allNoticesHandled();
    // Assess
    expect(await ses.emailsTo(address)).toEqual([]);
  });

  it('sends nothing to a person without an email address', async () => {
    // Prepare
    const studio = await createStudio({ asksForNotification: true });
    const person = await storePerson(studio.scope, { email: null, notificationConsent: true });
    const before = await ses.emails();
    // Act
    await recordPhotos(studio.scope, person.personId, 2);
    await allNoticesHandled();
    // Assess: the only new email is the one of allNoticesHandled.
    expect((await ses.emails()).length).toBe(before.length + 1);
    expect((await getNoticeRecipient(studio.scope, person.personId))!.state).toEqual({});
  });

  it('tries a failed send again through the stream, and sends it once', async () => {
    // Prepare: SES fails the first send.
    const studio = await createStudio({ asksForNotification: true });
    const address = uniqueEmail();
    const person = await storePerson(studio.scope, { email: address, notificationConsent: true });
    const sesSender = emailSender();
    let failures = 1;
    const attempts: string[] = [];
    const flaky: EmailSender = {
      async send(email) {
        attempts.push(email.to);
        if (failures-- > 0)
          throw Object.assign(new Error('SES is not available'), { name: 'InternalServerErrorException' });
        return sesSender.send(email);
      },
    };
    useEmailSender(flaky);
    try {
      // Act
      await recordPhotos(studio.scope, person.personId, 1);
      await waitForEmails(address, 1);
    } finally {
      useEmailSender(sesSender);
    }
    await allNoticesHandled();
    // Assess
    expect(attempts).toEqual([address, address]);
    expect(await ses.emailsTo(address)).toHaveLength(1);
  });

  it('waits out the claim of a sender that died between claim and send, then sends', async () => {
    // Prepare: a claim made just now by a sender that never finished.
    const studio = await createStudio({ asksForNotification: true });
    const address = uniqueEmail();
    const person = await storePerson(studio.scope, { email: address, notificationConsent: true });
    expect(await claimPhotoNotice(studio.scope, person.personId, now())).toBe(true);
    // Act: the record is refused, and handed over again, while the claim holds.
    const refusalsBefore = pipeline.noticeStream!.failedHandovers();
    await recordPhotos(studio.scope, person.personId, 1);
    await waitUntil(() => pipeline.noticeStream!.failedHandovers() >= refusalsBefore + 2);
    const whileClaimed = await ses.emailsTo(address);
    clockOffset += PHOTO_NOTICE_CLAIM_MS;
    await waitForEmails(address, 1);
    await allNoticesHandled();
    // Assess
    expect(whileClaimed).toEqual([]);
    expect(await ses.emailsTo(address)).toHaveLength(1);
  });
});
