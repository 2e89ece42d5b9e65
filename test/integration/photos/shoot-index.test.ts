import fc from 'fast-check';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import type { FaceOpinion, PlacementOpinions } from '#lib/faces/second-opinion';
import type { FaceCandidate } from '#lib/faces/rules/second-opinion';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { placeShootPhoto } from '#lib/photos/sorting/place-shoot-photo';
import { applyGovernor } from '#lib/photos/sorting/assign-shoot-photo';
import { manualGovernor } from '#lib/photos/sorting/rules/shoot-sequence';
import { nowIso } from '#lib/platform/clock';
import { assignShootPhotoByHand, dismissShootPhoto } from '#lib/photos/sorting/shoot-review';
import { forgetFaceCandidates } from '#lib/photos/sorting/forget-face-candidates';
import { backfillShootIndex } from '#lib/photos/sorting/shoot-index-backfill';
import { type ShootItem, listShootItems } from '#lib/photos/sorting/store/shoot-photos';
import { eraseParticipantsOfGallery, erasePersons } from '#lib/privacy/erasure';
import { withdrawFaceConsent } from '#lib/privacy/face-consent';
import { type TestTenant, createTestTenant } from '../../support/factories';
import { storeConfirmedReferenceFace } from '../../support/face-galleries';
import { type Upload, newShoot, syntheticShoot } from '../../support/shoot-uploads';
import { observingCommands } from '../../support/sent-commands';
import { dropShootIndex, expectedShootIndex, readsWholeShoot, storedShootIndex } from '../../support/shoot-index';
import { admin } from '../../support/admin';
import { keys } from '../../support/table-keys';
import { useTestTable } from '../../support/test-table';

useTestTable();

type Persons = { personId: string; code: string }[];

/**
 * Faces that vary by photo, the same for a photo however often it is placed: a third of the
 * photos a card gives to someone withheld for two other persons' faces, and the photos no card
 * gives to anyone filled in for one of those (every other) or only naming them.
 */
function facesOf(persons: Persons, objectKey: string): FaceOpinion {
  const hash = [...objectKey].reduce((sum, character) => sum + character.charCodeAt(0), 0);
  const candidates: FaceCandidate[] = [
    { personId: persons[hash % persons.length]!.personId, distance: 0.3 },
    { personId: persons[(hash + 1) % persons.length]!.personId, distance: 0.42 },
  ];
  const opinion: Pick<FaceOpinion, 'onCard' | 'withoutCard'> = {
    onCard: async () =>
      hash % 3 === 0 ? { kind: 'withhold', reason: 'face_mismatch', distance: 0.74, candidates } : undefined,
    withoutCard: async () => (hash % 2 === 0 ? { fillFor: candidates[0], candidates } : { candidates }),
  };
  return opinion as FaceOpinion;
}

const opinionsFor = (persons: Persons, upload: Upload): PlacementOpinions => ({
  opinion: facesOf(persons, upload.facts.objectKey),
  opinionOf: (objectKey) => facesOf(persons, objectKey),
});

/** A shoot of `personCount` persons with confirmed reference faces, placed in capture order with the faces above. */
async function facedShoot(studio: TestTenant, personCount: number) {
  const shoot = await newShoot(studio, personCount);
  for (const person of shoot.persons) await storeConfirmedReferenceFace(shoot.scope, person.personId);
  const uploads = syntheticShoot(shoot.scope, shoot.persons);
  const place = (upload: Upload) =>
    placeShootPhoto(shoot.scope, upload.facts, upload.card, opinionsFor(shoot.persons, upload));
  return { ...shoot, uploads, place };
}

const photosOf = (items: ShootItem[]) => items.filter((item) => item.kind === 'photo');

/** The roles the expected index holds, to show a test's shoot exercises each of them. */
async function rolesOf(scope: GalleryScope): Promise<string[]> {
  const roles = (await expectedShootIndex(scope)).map((line) =>
    line.includes(' -> ') ? 'pointer' : line.split(' ')[1]!.split('#')[0]!,
  );
  return [...new Set(roles)].sort();
}

/** The commands that read a whole shoot partition while `act` runs. */
async function wholeShootReadsDuring(act: () => Promise<unknown>): Promise<string[]> {
  const reads: string[] = [];
  await observingCommands(act, (commandName, input) => {
    if (readsWholeShoot(commandName, input)) reads.push(JSON.stringify(input));
  });
  return reads;
}

describe("each person's shoot index and the photo pointers", () => {
  let studio: TestTenant;
  beforeAll(async () => {
    studio = await createTestTenant();
  });

  it('hold the shoot as a full read sees it after shuffled, repeated, parallel placements and concurrent moves by hand', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 2 ** 31 - 1 }), async (seed) => {
        // Prepare: delivered shuffled, a fifth twice, six at a time
        const { scope, persons, uploads, place } = await facedShoot(studio, 6);
        const random = fc.sample(
          fc.shuffledSubarray(uploads, { minLength: uploads.length, maxLength: uploads.length }),
          { seed, numRuns: 1 },
        )[0]!;
        const deliveries = [...random, ...random.filter((_, index) => index % 5 === 0)];
        for (let start = 0; start < deliveries.length; start += 6)
          await Promise.all(deliveries.slice(start, start + 6).map(place));
        // Act: hands, redeliveries and a forgetting, all at once
        const photoIds = uploads.filter((upload) => upload.card.kind === 'photo').map((upload) => upload.facts.photoId);
        await Promise.all([
          ...photoIds
            .filter((_, index) => index % 3 === seed % 3)
            .map((photoId, index) =>
              index % 4 === 0
                ? dismissShootPhoto(scope, photoId)
                : assignShootPhotoByHand(scope, photoId, persons[(seed + index) % persons.length]!.personId),
            ),
          ...random.filter((_, index) => index % 4 === 0).map(place),
          forgetFaceCandidates(scope, new Set([persons[seed % persons.length]!.personId])),
        ]);
        // Assess
        expect(await rolesOf(scope)).toEqual(['CAND', 'CARD', 'HAS', 'HELD', 'pointer']);
        expect(await storedShootIndex(scope)).toEqual(await expectedShootIndex(scope));
      }),
      { numRuns: 3 },
    );
  }, 180_000);

  it("withdraws a face consent from the person's index, never reading the whole shoot", async () => {
    // Prepare: a larger shoot, in capture order
    const { scope, persons, uploads, place } = await facedShoot(studio, 16);
    for (const upload of uploads) await place(upload);
    const named = (items: ShootItem[], personId: string) =>
      photosOf(items).filter(
        (photo) => photo.kind === 'photo' && (photo.candidates ?? []).some((one) => one.personId === personId),
      );
    const before = await listShootItems(scope);
    const withdrawing = persons.find((person) => named(before, person.personId).length >= 2)!;
    // Act
    let withdrawal: Awaited<ReturnType<typeof withdrawFaceConsent>> | undefined;
    const wholeReads = await wholeShootReadsDuring(async () => {
      withdrawal = await withdrawFaceConsent(scope, withdrawing.personId);
    });
    // Assess
    expect(before.length).toBeGreaterThan(60);
    expect(wholeReads).toEqual([]);
    expect(withdrawal).toEqual({
      outcome: 'withdrawn',
      referenceFaces: 1,
      candidateLists: named(before, withdrawing.personId).length,
      // The shoot's persons have reference faces without a face consent on their item: nothing to record.
      changed: false,
    });
    expect(named(await listShootItems(scope), withdrawing.personId)).toEqual([]);
    expect(await storedShootIndex(scope)).toEqual(await expectedShootIndex(scope));
  }, 90_000);

  it("erases one person's part of the shoot from their index and their cards' photos, never reading the whole shoot", async () => {
    // Prepare
    const { scope, persons, uploads, place } = await facedShoot(studio, 16);
    for (const upload of uploads) await place(upload);
    const before = await listShootItems(scope);
    const names = (item: ShootItem, personId: string) =>
      (item.kind === 'card' && item.cardPersonId === personId) ||
      (item.kind === 'photo' &&
        [item.personId, item.heldFor, ...(item.candidates ?? []).map((one) => one.personId)].includes(personId));
    const erased = persons.find((person) =>
      before.some((item) => item.kind === 'photo' && item.heldFor === person.personId),
    )!;
    const cards = before.filter((item) => item.kind === 'card' && item.cardPersonId === erased.personId);
    const cardPositions = new Set(cards.map((card) => card.sk.split('#').slice(2).join('#')));
    const own = before.filter(
      (item) =>
        (item.kind === 'card' && item.cardPersonId === erased.personId) ||
        (item.kind === 'photo' && [item.personId, item.heldFor].includes(erased.personId)),
    );
    const governed = photosOf(before).filter(
      (photo) => photo.kind === 'photo' && photo.governor !== undefined && cardPositions.has(photo.governor),
    );
    // An entry no item backs (as a fault would leave it): the erasure must not leave it keyed by the person
    await db.send(
      new PutCommand({
        TableName: tableName,
        Item: keys.shootIndexEntry(
          scope.tenantId,
          scope.token,
          erased.personId,
          'HAS',
          keys.shootPhoto(scope.tenantId, scope.token, 'nowhere', '0').sk,
        ),
      }),
    );
    // Act
    let receipt: Awaited<ReturnType<typeof erasePersons>> | undefined;
    const wholeReads = await wholeShootReadsDuring(async () => {
      receipt = await erasePersons(scope, { personId: erased.personId });
    });
    // Assess: what a full read finds of the person is gone, their cards are positions only
    expect(cards.length).toBeGreaterThan(0);
    expect(wholeReads).toEqual([]);
    expect(receipt?.shootItems).toBe(own.length);
    const after = await listShootItems(scope);
    expect(after.filter((item) => names(item, erased.personId))).toEqual([]);
    expect(after.filter((item) => cards.some((card) => card.sk === item.sk)).map((item) => item.kind)).toEqual(
      cards.map(() => 'erased_card'),
    );
    const remainingSortKeys = new Set(after.map((item) => item.sk));
    expect(governed.filter((photo) => remainingSortKeys.has(photo.sk))).toEqual([]);
    expect(after.length).toBe(
      before.length - new Set([...own, ...governed].map((item) => item.sk)).size + cards.length,
    );
    const index = await storedShootIndex(scope);
    expect(index.filter((line) => line.includes(erased.personId))).toEqual([]);
    expect(index).toEqual(await expectedShootIndex(scope));
  }, 90_000);

  it("leaves no index entry or pointer once a gallery's participants are erased", async () => {
    // Prepare
    const { scope, uploads, place } = await facedShoot(studio, 4);
    for (const upload of uploads) await place(upload);
    expect((await storedShootIndex(scope)).length).toBeGreaterThan(uploads.length);
    // Act
    await eraseParticipantsOfGallery(scope);
    // Assess
    expect(await storedShootIndex(scope)).toEqual([]);
  });

  it("assigns and dismisses a photo by hand from its pointer, never reading the whole shoot; a card's ID is a card's", async () => {
    // Prepare
    const { scope, persons, uploads, place } = await facedShoot(studio, 4);
    for (const upload of uploads) await place(upload);
    const photos = uploads.filter((upload) => upload.card.kind === 'photo');
    const card = uploads.find((upload) => upload.card.kind === 'card')!;
    // Act
    const outcomes: string[] = [];
    const wholeReads = await wholeShootReadsDuring(async () => {
      outcomes.push(await assignShootPhotoByHand(scope, photos[0]!.facts.photoId, persons[3]!.personId));
      outcomes.push(await dismissShootPhoto(scope, photos[1]!.facts.photoId));
      outcomes.push(await dismissShootPhoto(scope, card.facts.photoId));
      outcomes.push(await dismissShootPhoto(scope, 'pho_nobody'));
    });
    // Assess
    expect(wholeReads).toEqual([]);
    expect(outcomes).toEqual(['assigned', 'dismissed', 'card', 'unknown_photo']);
    const items = await listShootItems(scope);
    const photo = (photoId: string) => items.find((item) => item.kind === 'photo' && item.photoId === photoId);
    expect(photo(photos[0]!.facts.photoId)).toMatchObject({ personId: persons[3]!.personId });
    expect(photo(photos[1]!.facts.photoId)).toMatchObject({ reason: 'dismissed' });
    expect(await storedShootIndex(scope)).toEqual(await expectedShootIndex(scope));
  });

  it('are written for a shoot sorted before them, a page at a time, alongside moves by hand, and again write the same', async () => {
    // Prepare: a sorted shoot without index or pointers
    const { scope, persons, uploads, place } = await facedShoot(studio, 6);
    for (const upload of uploads) await place(upload);
    expect(await dropShootIndex(scope)).toBeGreaterThan(uploads.length);
    const moved = photosOf(await listShootItems(scope)).slice(-6);
    // Act: the backfill in pages of 7, while a hand moves photos (by key: their pointers may not be written yet)
    const [tally] = await Promise.all([
      backfillShootIndex(scope, { pageSize: 7 }),
      (async () => {
        for (const [index, photo] of moved.entries())
          await applyGovernor(
            scope,
            { pk: photo.pk, sk: photo.sk },
            { position: manualGovernor(nowIso()) },
            { personId: persons[index]!.personId },
          );
      })(),
    ]);
    // Assess
    expect(tally.items).toBe(uploads.length);
    expect(await storedShootIndex(scope)).toEqual(await expectedShootIndex(scope));
    const run = await admin('photo', 'index-shoot', '--tenant', studio.slug, '--gallery', scope.token, '--json');
    expect(run.code).toBe(0);
    expect(run.json()).toEqual({
      galleries: [{ gallery: scope.token, items: uploads.length, indexed: tally.indexed }],
    });
    expect(await storedShootIndex(scope)).toEqual(await expectedShootIndex(scope));
  });
});
