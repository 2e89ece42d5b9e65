import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import sharp from 'sharp';
import { getGalleryConfiguration } from '#lib/galleries/store/galleries';
import { listPhotos } from '#lib/photos/common/store/photos';
import { getPerson } from '#lib/persons/store/persons';
import { submitCheckin } from '#lib/checkin/submit-checkin';
import { parseSubmitCheckin } from '#lib/checkin/checkin-schemas';
import { createDelivery, getDelivery } from '#lib/webhooks/store/webhook-deliveries';
import type { DeliveryStatus } from '#lib/webhooks/rules/webhook-delivery';
import { findStudioReferences, runCommand } from '../../scripts/studio/studio-commands';
import { checkInWithSelfie, createFaceGallery } from '../support/face-galleries';
import { makeJpeg, uploadObject } from '../support/media';
import { sortPhotosByCapture } from '#lib/photos/common/rules/photo-model';
import { type Studio, startStudio } from '../../scripts/studio/studio-server';
import { type TestTenant, createTestTenant } from '../support/factories';
import { reviewShoot } from '../support/review-shoot';
import type { Upload } from '../support/shoot-uploads';
import { useTestTable } from '../support/test-table';

useTestTable();

/** A GET with a Host header of our choosing (fetch sets its own). */
function getWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const call = request(url, { headers: { host } }, (response) => {
      response.resume();
      resolve(response.statusCode!);
    });
    call.on('error', reject);
    call.end();
  });
}

/** A JSON answer of the console, as the page reads it. */
const answerOf = async (url: string): Promise<any> => (await fetch(url)).json();

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

describe('studio console (npm run studio)', () => {
  let tenant: TestTenant;
  let shoot: Awaited<ReturnType<typeof reviewShoot>>['shoot'];
  let uploads: Upload[];
  let withheld: Upload;
  let studio: Studio;
  let api: string;

  beforeAll(async () => {
    tenant = await createTestTenant();
    ({ shoot, uploads, withheld } = await reviewShoot(tenant));
    studio = await startStudio({ tenant: tenant.slug });
    api = `${studio.url}api/galleries/${shoot.scope.token}`;
  });

  afterAll(async () => {
    await studio?.close();
  });

  it('answers 403 to every request without the session secret or at another host name, and sends the security headers', async () => {
    // Prepare
    const origin = `http://127.0.0.1:${studio.port}`;
    const wrongSecret = 'x'.repeat(studio.secret.length);
    const person = shoot.persons[0]!.personId;
    const gallery = `/api/galleries/${shoot.scope.token}`;
    const pages = [
      '/',
      '/studio.js',
      '/studio-views.js',
      '/api/galleries',
      `${gallery}/review`,
      `${gallery}/persons`,
      '/api/webhooks',
      '/api/webhooks/whk_x/deliveries',
      `${gallery}/persons/${person}`,
      `${gallery}/stats`,
      `${gallery}/references/${person}`,
      `${gallery}/cards`,
      `${gallery}/thumbnails/${withheld.facts.photoId}`,
    ];
    const actions = [
      '/api/webhooks/whk_x/replay',
      `${gallery}/photos/${withheld.facts.photoId}/release`,
      `${gallery}/photos/${withheld.facts.photoId}/assign`,
      `${gallery}/photos/${withheld.facts.photoId}/dismiss`,
      `${gallery}/persons/${person}/pick`,
      `${gallery}/persons/${person}/erase`,
    ];
    // Act
    const statuses = await Promise.all(
      [...pages, ...pages.map((path) => `/${wrongSecret}${path}`), `/${studio.secret.slice(1)}/api/galleries`].map(
        async (path) => (await fetch(origin + path)).status,
      ),
    );
    const actionStatuses = await Promise.all(
      [...actions, ...actions.map((path) => `/${wrongSecret}${path}`)].map(
        async (path) =>
          (await post(origin + path, { dryRun: true, confirm: 'Person 0', photoId: withheld.facts.photoId })).status,
      ),
    );
    const action = await post(
      `${origin}/${wrongSecret}/api/galleries/${shoot.scope.token}/photos/${withheld.facts.photoId}/release`,
      {},
    );
    const rebound = await getWithHost(studio.url, `studio.example:${studio.port}`);
    const page = await fetch(studio.url);
    // Assess
    expect(statuses).toEqual(Array(pages.length * 2 + 1).fill(403));
    expect(actionStatuses).toEqual(Array(actions.length * 2).fill(403));
    expect((await getPerson(shoot.scope, person))?.pickedPhotoId).toBeUndefined();
    expect([action.status, rebound]).toEqual([403, 403]);
    expect(await action.json()).toMatchObject({ ok: false, error: 'forbidden' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(new URL(studio.url).hostname).toBe('127.0.0.1');
  });

  it('lists the galleries with their days, the review queue with counts, reasons and cards, and the persons, and draws small thumbnails without metadata of the photos and their cards', async () => {
    // Prepare: an image for the first photo of the person the withheld photo waits for, their reference.
    const [firstPhoto] = sortPhotosByCapture(await listPhotos(shoot.scope, shoot.persons[0]!.personId));
    await uploadObject(firstPhoto!.objectKey, makeJpeg(900, 900));
    // Images of the two persons' cards: the first governs the withheld photo, the second only photos the second person has.
    const cardOf = (index: number) =>
      uploads.find((upload) => upload.card.kind === 'card' && upload.card.code === shoot.persons[index]!.code)!.facts;
    for (const index of [0, 1]) await uploadObject(cardOf(index).objectKey, makeJpeg(600, 400));
    // Act
    const galleries = await answerOf(`${studio.url}api/galleries`);
    const queue = await answerOf(`${api}/review`);
    const reference = await fetch(`${api}/references/${shoot.persons[0]!.personId}`);
    const notBesideAMismatch = await fetch(`${api}/references/${shoot.persons[1]!.personId}`);
    const thumbnail = await fetch(`${api}/thumbnails/${withheld.facts.photoId}`);
    const persons = await answerOf(`${api}/persons`);
    const withoutImage = await fetch(
      `${api}/thumbnails/${uploads.find((upload) => upload.card.kind === 'photo' && upload !== withheld)!.facts.photoId}`,
    );
    const governingCard = await fetch(`${api}/thumbnails/${cardOf(0).photoId}`);
    const cardOfNoQueuedPhoto = await fetch(`${api}/thumbnails/${cardOf(1).photoId}`);
    // Assess
    expect(galleries).toMatchObject({ ok: true, tenant: tenant.slug });
    expect(galleries.galleries).toContainEqual({
      token: shoot.scope.token,
      name: 'Shoot',
      isGroupShoot: true,
      days: [],
      cardsPrinted: null,
    });
    const days = galleries.galleries.flatMap((gallery: { days: unknown[] }) => gallery.days);
    expect(days).toContainEqual(expect.objectContaining({ label: 'First day', booked: 0, capacity: 5 }));
    expect(days).toContainEqual(expect.objectContaining({ label: 'Second day', booked: 0, capacity: null }));
    expect(queue.counts).toEqual({ withheld: 1, unassigned: 10 });
    expect(queue.photos).toHaveLength(11);
    expect(queue.photos).toContainEqual(
      expect.objectContaining({
        photoId: withheld.facts.photoId,
        reason: 'face_mismatch',
        heldFor: shoot.persons[0]!.personId,
        card: {
          photoId: cardOf(0).photoId,
          path: cardOf(0).path,
          code: shoot.persons[0]!.code,
          personId: shoot.persons[0]!.personId,
        },
        candidates: [{ personId: shoot.persons[1]!.personId, distance: 0.31 }],
        reference: { personId: shoot.persons[0]!.personId, kind: 'first_photo' },
      }),
    );
    expect(queue.photos.filter((photo: { reference: unknown }) => photo.reference !== null)).toHaveLength(1);
    expect([reference.status, reference.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    expect((await sharp(Buffer.from(await reference.arrayBuffer())).metadata()).width).toBe(320);
    expect(notBesideAMismatch.status).toBe(404);
    expect([thumbnail.status, thumbnail.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    const drawn = await sharp(Buffer.from(await thumbnail.arrayBuffer())).metadata();
    expect([drawn.format, drawn.width, drawn.height, drawn.exif]).toEqual(['jpeg', 320, 213, undefined]);
    expect(withoutImage.status).toBe(404);
    // The card that governs a queued photo is drawn beside it; a card that governs none is not served.
    expect([
      governingCard.status,
      (await sharp(Buffer.from(await governingCard.arrayBuffer())).metadata()).width,
    ]).toEqual([200, 320]);
    expect(cardOfNoQueuedPhoto.status).toBe(404);
    expect(persons.persons).toEqual(
      shoot.persons.map((person, index) => ({
        personId: person.personId,
        name: `Person ${index}`,
        code: person.code,
        employeeId: null,
        shootingDayId: null,
        checkedInAt: null,
        photoCount: expect.any(Number),
        declared: null,
      })),
    );
    expect(persons.persons[0].photoCount).toBeGreaterThan(0);
  });

  it('releases the withheld photo and assigns an unassigned one through the API, as the CLI does, and refuses what the CLI refuses', async () => {
    // Prepare
    const [first, second] = shoot.persons;
    const nobodys = uploads.find((upload) => upload.card.kind === 'photo' && upload.facts.capturedAt === null)!;
    // Act
    const released = await post(`${api}/photos/${withheld.facts.photoId}/release`, {});
    const assigned = await post(`${api}/photos/${nobodys.facts.photoId}/assign`, { personId: second!.personId });
    const notWithheld = await post(
      `${api}/photos/${uploads.find((upload) => upload.card.kind === 'photo' && upload.facts.capturedAt === null && upload !== nobodys)!.facts.photoId}/release`,
      {},
    );
    const unknownPerson = await post(`${api}/photos/${nobodys.facts.photoId}/assign`, { personId: 'per_nobody' });
    const notJson = await fetch(`${api}/photos/${nobodys.facts.photoId}/assign`, {
      method: 'POST',
      body: 'personId=x',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    const badPath = await fetch(`${studio.url}api/galleries/%E0/review`);
    const queue = await answerOf(`${api}/review`);
    // Assess
    expect(badPath.status).toBe(400);
    expect([released.status, assigned.status]).toEqual([200, 200]);
    expect(await assigned.json()).toEqual({ ok: true, photoId: nobodys.facts.photoId, personId: second!.personId });
    expect((await listPhotos(shoot.scope, first!.personId)).map((photo) => photo.photoId)).toContain(
      withheld.facts.photoId,
    );
    expect((await listPhotos(shoot.scope, second!.personId)).map((photo) => photo.photoId)).toContain(
      nobodys.facts.photoId,
    );
    expect((await getGalleryConfiguration(shoot.scope.tenantId, shoot.scope.token))!.counters.photosWithheld).toBe(0);
    expect(queue.counts).toEqual({ withheld: 0, unassigned: 9 });
    expect([notWithheld.status, ((await notWithheld.json()) as { message: string }).message]).toEqual([
      400,
      expect.stringMatching(/is not withheld/),
    ]);
    expect([unknownPerson.status, ((await unknownPerson.json()) as { error: string }).error]).toEqual([
      404,
      'not_found',
    ]);
    expect(notJson.status).toBe(415);
  });

  it("gives a group shoot's photo counts from the gallery statistics and its check-ins per day from the persons' check-in times", async () => {
    // Prepare: after the release and the assignment of the test before, and one check-in.
    const configuration = (await getGalleryConfiguration(shoot.scope.tenantId, shoot.scope.token))!;
    const checkedIn = (await submitCheckin(
      tenant.tenant,
      configuration,
      parseSubmitCheckin({
        action: 'submitCheckin',
        token: shoot.scope.token,
        name: 'Walk In',
        email: 'walk-in@example.com',
      }),
    )) as { personId: string };
    const checkedInAt = (await getPerson(shoot.scope, checkedIn.personId))!.createdAt;
    const assigned = (
      await Promise.all(shoot.persons.map(async (person) => (await listPhotos(shoot.scope, person.personId)).length))
    ).reduce((sum, count) => sum + count, 0);
    // Act
    const stats = await answerOf(`${api}/stats`);
    const unknownGallery = await fetch(`${studio.url}api/galleries/gal_nothing/stats`);
    // Assess
    expect(stats).toEqual({
      ok: true,
      gallery: shoot.scope.token,
      photos: { assigned, unassigned: 9, withheld: 0, cardsPhotographed: expect.any(Number) },
      persons: { total: 3, imported: 2, checkedIn: 1 },
      checkInsByDay: [{ date: checkedInAt.slice(0, 10), count: 1 }],
    });
    expect(assigned).toBeGreaterThan(0);
    expect(unknownGallery.status).toBe(404);
  });

  it("shows a person's photos in capture order with the pick for HR, picks one as `photo pick` does, and refuses a photo that is not theirs", async () => {
    // Prepare
    const [first, second] = shoot.persons;
    const person = `${api}/persons/${first!.personId}`;
    const expected = sortPhotosByCapture(await listPhotos(shoot.scope, first!.personId)).map((photo) => photo.photoId);
    const chosen = expected.at(-1)!;
    // Act
    const before = await answerOf(person);
    const picked = await post(`${person}/pick`, { photoId: chosen });
    const after = await answerOf(person);
    const notTheirs = await post(`${person}/pick`, {
      photoId: (await listPhotos(shoot.scope, second!.personId))[0]!.photoId,
    });
    const unknownPerson = await fetch(`${api}/persons/per_nobody`);
    // Assess
    expect(expected.length).toBeGreaterThan(1);
    expect(before.person).toEqual({
      personId: first!.personId,
      name: 'Person 0',
      code: first!.code,
      employeeId: null,
      checkedInAt: null,
      declared: null,
      // Imported, never asked: each consent null, unchanged since.
      consents: ['consentGiven', 'faceConsent', 'notificationConsent', 'hrExportConsent'].map((consent) =>
        expect.objectContaining({ consent, given: null, changedAt: null, changedBy: null, withdrawable: false }),
      ),
    });
    expect(before.photos.map((photo: { photoId: string }) => photo.photoId)).toEqual(expected);
    expect(before.photos.filter((photo: { picked: boolean }) => photo.picked)).toEqual([]);
    expect(picked.status).toBe(200);
    expect(await picked.json()).toEqual({
      ok: true,
      personId: first!.personId,
      photoId: chosen,
      pickedBy: 'photographer',
    });
    expect((await getPerson(shoot.scope, first!.personId))!.pickedPhotoId).toBe(chosen);
    expect(
      after.photos
        .filter((photo: { picked: boolean }) => photo.picked)
        .map((photo: { photoId: string }) => photo.photoId),
    ).toEqual([chosen]);
    expect([notTheirs.status, ((await notTheirs.json()) as any).error]).toEqual([404, 'not_found']);
    expect((await getPerson(shoot.scope, first!.personId))!.pickedPhotoId).toBe(chosen);
    expect(unknownPerson.status).toBe(404);
  });

  it("draws the thumbnail of a person's photo once the person view has listed it, not before", async () => {
    // Prepare: a console of its own, whose queue has listed nothing; the withheld photo, released to the first person in a test before, has an image.
    const fresh = await startStudio({ tenant: tenant.slug });
    const gallery = `${fresh.url}api/galleries/${shoot.scope.token}`;
    try {
      // Act
      const unlisted = await fetch(`${gallery}/thumbnails/${withheld.facts.photoId}`);
      const listed = await answerOf(`${gallery}/persons/${shoot.persons[0]!.personId}`);
      const thumbnail = await fetch(`${gallery}/thumbnails/${withheld.facts.photoId}`);
      // Assess
      expect(unlisted.status).toBe(404);
      expect(listed.photos.map((photo: { photoId: string }) => photo.photoId)).toContain(withheld.facts.photoId);
      expect([thumbnail.status, thumbnail.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    } finally {
      await fresh.close();
    }
  });

  it("prints a gallery's camera cards as the PDF of `cards pdf`, a download, refuses an unknown day or gallery and a day without persons, and leaves no temporary file", async () => {
    // Prepare
    const leftovers = () => readdirSync(tmpdir()).filter((name) => name.startsWith('studio-cards-'));
    const before = leftovers();
    // Act
    const cards = await fetch(`${api}/cards`);
    const bytes = Buffer.from(await cards.arrayBuffer());
    const unknownDay = await fetch(`${api}/cards?day=day_nothing`);
    const unknownGallery = await fetch(`${studio.url}api/galleries/gal_nothing/cards`);
    const galleries = (await answerOf(`${studio.url}api/galleries`)).galleries as {
      token: string;
      days: { id: string; label: string }[];
      cardsPrinted: unknown;
    }[];
    const withDays = galleries.find((gallery) => gallery.days.length > 0)!;
    const emptyDay = await fetch(`${studio.url}api/galleries/${withDays.token}/cards?day=${withDays.days[0]!.id}`);
    // Assess
    expect([cards.status, cards.headers.get('content-type')]).toEqual([200, 'application/pdf']);
    expect(cards.headers.get('content-disposition')).toBe(`attachment; filename="cards-${shoot.scope.token}.pdf"`);
    expect(cards.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // Three persons (the walk-in of the test before), four cards a page: one page.
    expect(bytes.toString('latin1')).toMatch(/\/Type \/Pages\s+\/Count 1\b/);
    expect([unknownDay.status, ((await unknownDay.json()) as any).message]).toEqual([
      404,
      expect.stringMatching(/no shooting day "day_nothing"/),
    ]);
    expect(unknownGallery.status).toBe(404);
    // The day reaches the CLI's command: nobody is booked on it.
    expect([emptyDay.status, ((await emptyDay.json()) as any).message]).toEqual([
      404,
      `No persons in shooting day ${withDays.days[0]!.id}: no cards written`,
    ]);
    expect(leftovers()).toEqual(before);
    // The printing is recorded (the two imported persons and the walk-in), and the galleries page shows it.
    expect(galleries.find((gallery) => gallery.token === shoot.scope.token)!.cardsPrinted).toEqual({
      cards: 3,
      at: expect.stringMatching(/^\d{4}-/),
    });
    expect(withDays.cardsPrinted).toBeNull();
  });

  it('erases a person as `person erase` does: a dry run that changes nothing, a refusal unless the confirmation names them (or without the bucket), then the receipt', async () => {
    // Prepare
    const second = shoot.persons[1]!;
    const erase = `${api}/persons/${second.personId}/erase`;
    const bucket = process.env.MEDIA_BUCKET;
    // Act
    delete process.env.MEDIA_BUCKET;
    const withoutBucket = await post(erase, { dryRun: true }).finally(() => {
      process.env.MEDIA_BUCKET = bucket;
    });
    const dryRun = await post(erase, { dryRun: true });
    const dryAnswer = (await dryRun.json()) as any;
    const afterDryRun = await getPerson(shoot.scope, second.personId);
    const unconfirmed = await post(erase, {});
    const wrongName = await post(erase, { confirm: 'Person 0' });
    const afterRefusals = await getPerson(shoot.scope, second.personId);
    const erased = await post(erase, { confirm: ' person 1 ' });
    const receipt = (await erased.json()) as any;
    // Assess
    // As the CLI refuses it before the command runs.
    expect([withoutBucket.status, ((await withoutBucket.json()) as any).message]).toEqual([
      400,
      expect.stringMatching(/^MEDIA_BUCKET is not set/),
    ]);
    expect(dryRun.status).toBe(200);
    expect(dryAnswer.receipt).toMatchObject({ dryRun: true, persons: [second.personId] });
    expect(dryAnswer.lines[0]).toMatch(/^Would remove for .+ \(dry run: nothing was changed\)$/);
    expect(afterDryRun).toBeDefined();
    expect([unconfirmed.status, wrongName.status]).toEqual([400, 400]);
    expect(((await wrongName.json()) as any).message).toMatch(/Type the name of the person to erase \("Person 1"\)/);
    expect(afterRefusals).toBeDefined();
    expect(erased.status).toBe(200);
    expect(receipt.receipt).toMatchObject({ dryRun: false, persons: [second.personId] });
    expect(receipt.receipt.photoRecords).toBeGreaterThan(0);
    expect(receipt.lines[0]).toMatch(/^Removed for /);
    expect(receipt.lines.join('\n')).toMatch(/photo records\s+\d+/);
    expect(await getPerson(shoot.scope, second.personId)).toBeUndefined();
  });

  it('lists the webhook subscriptions and the deliveries of one with their outcome, and replays one event or the failed ones, as `webhook replay` does', async () => {
    // Prepare: an endpoint on localhost, which only the local stack accepts (as test/support/events.ts sets it).
    const localStack = process.env.LOCAL_STACK;
    process.env.LOCAL_STACK = 'true';
    const { subscriptionId } = (await runCommand('webhook', 'add', {
      tenant: tenant.slug,
      url: 'http://localhost:9/hooks',
      events: 'person.created',
    }).finally(() => {
      if (localStack === undefined) delete process.env.LOCAL_STACK;
      else process.env.LOCAL_STACK = localStack;
    })) as { subscriptionId: string };
    const delivery = (eventId: string, status: DeliveryStatus, statusCode: number) =>
      createDelivery({
        tenantId: tenant.tenant.tenantId,
        subscriptionId,
        eventId,
        eventType: 'person.created',
        galleryToken: shoot.scope.token,
        status,
        createdAt: new Date().toISOString(),
        attempts: 1,
        roundFailures: status === 'failed' ? 1 : 0,
        nextAttemptAt: Date.now(),
        attemptLog: [
          {
            attempt: 1,
            at: new Date().toISOString(),
            durationMs: 12,
            statusCode,
            ...(status === 'failed' ? { failure: 'http_status' as const } : {}),
          },
        ],
      });
    await delivery('evt_delivered', 'delivered', 200);
    await delivery('evt_failed_1', 'failed', 500);
    await delivery('evt_failed_2', 'failed', 503);
    const webhooks = `${studio.url}api/webhooks`;
    // Act
    const subscriptions = await answerOf(webhooks);
    const deliveries = await answerOf(`${webhooks}/${subscriptionId}/deliveries`);
    const failedOnly = await answerOf(`${webhooks}/${subscriptionId}/deliveries?status=failed`);
    const one = await post(`${webhooks}/${subscriptionId}/replay`, { eventId: 'evt_failed_1' });
    const afterOne = await getDelivery(tenant.tenant.tenantId, subscriptionId, 'evt_failed_1');
    const failed = await post(`${webhooks}/${subscriptionId}/replay`, { failed: true });
    const afterFailed = await getDelivery(tenant.tenant.tenantId, subscriptionId, 'evt_failed_2');
    const neither = await post(`${webhooks}/${subscriptionId}/replay`, {});
    const unknown = await answerOf(`${webhooks}/whk_nothing/deliveries`);
    // Assess
    expect(subscriptions.subscriptions).toEqual([
      expect.objectContaining({ subscriptionId, url: 'http://localhost:9/hooks', enabled: true, signingSecrets: 1 }),
    ]);
    expect(JSON.stringify(subscriptions)).not.toMatch(/sealed/);
    expect(
      deliveries.deliveries.map((entry: { eventId: string; status: string }) => [entry.eventId, entry.status]).sort(),
    ).toEqual([
      ['evt_delivered', 'delivered'],
      ['evt_failed_1', 'failed'],
      ['evt_failed_2', 'failed'],
    ]);
    expect(
      deliveries.deliveries.find((entry: { eventId: string }) => entry.eventId === 'evt_failed_2').attemptLog,
    ).toEqual([expect.objectContaining({ statusCode: 503, failure: 'http_status' })]);
    expect(failedOnly.deliveries.map((entry: { eventId: string }) => entry.eventId).sort()).toEqual([
      'evt_failed_1',
      'evt_failed_2',
    ]);
    expect([one.status, await one.json()]).toEqual([200, { ok: true, replayed: 1 }]);
    expect(afterOne!.status).toBe('replay_requested');
    expect([failed.status, await failed.json()]).toEqual([200, { ok: true, replayed: 1 }]);
    expect(afterFailed!.status).toBe('replay_requested');
    expect(neither.status).toBe(400);
    expect(unknown).toMatchObject({ ok: false, error: 'not_found' });
  });

  it("takes a person's selfie as their reference only where the gallery asks for face consent and they gave it", async () => {
    // Prepare
    const faces = await createFaceGallery(tenant.tenant);
    const selfie = makeJpeg(400, 400);
    const consenting = await checkInWithSelfie(tenant.tenant, faces, 'consenting', true, selfie);
    const refusing = await checkInWithSelfie(tenant.tenant, faces, 'refusing', false, selfie);
    // Act
    const references = await findStudioReferences(tenant.slug, faces.token, [
      consenting.personId,
      refusing.personId,
      shoot.persons[0]!.personId,
    ]);
    const shootReferences = await findStudioReferences(tenant.slug, shoot.scope.token, [shoot.persons[0]!.personId]);
    // Assess
    expect(references.get(consenting.personId)).toEqual({
      kind: 'selfie',
      objectKey: `selfies/${faces.tenantId}/${faces.token}/${consenting.personId}.jpg`,
    });
    // Without the consent and without photos, nothing: the selfie is not shown.
    expect(references.has(refusing.personId)).toBe(false);
    expect(references.has(shoot.persons[0]!.personId)).toBe(false);
    expect(shootReferences.get(shoot.persons[0]!.personId)).toEqual({
      kind: 'first_photo',
      objectKey: sortPhotosByCapture(await listPhotos(shoot.scope, shoot.persons[0]!.personId))[0]!.objectKey,
    });
  });

  it("marks an unassigned photo nobody's as `photo dismiss` does: out of the queue, still among the unassigned of the statistics, and refuses a card", async () => {
    // Prepare
    const queueBefore = await answerOf(`${api}/review`);
    const statsBefore = await answerOf(`${api}/stats`);
    const photo = queueBefore.photos[0];
    // Act
    const dismissed = await post(`${api}/photos/${photo.photoId}/dismiss`, {});
    const card = await post(
      `${api}/photos/${uploads.find((upload) => upload.card.kind === 'card')!.facts.photoId}/dismiss`,
      {},
    );
    const queueAfter = await answerOf(`${api}/review`);
    const statsAfter = await answerOf(`${api}/stats`);
    // Assess
    expect([dismissed.status, await dismissed.json()]).toEqual([
      200,
      { ok: true, photoId: photo.photoId, outcome: 'dismissed' },
    ]);
    expect(queueAfter.photos.map((listed: { photoId: string }) => listed.photoId)).not.toContain(photo.photoId);
    expect(queueAfter.counts.unassigned).toBe(queueBefore.counts.unassigned - 1);
    expect(statsAfter.photos.unassigned).toBe(statsBefore.photos.unassigned);
    expect([card.status, ((await card.json()) as { message: string }).message]).toEqual([
      400,
      expect.stringMatching(/is a camera card/),
    ]);
  });
});
