import { getGalleryConfiguration } from '#lib/galleries/store/galleries';
import { listPhotos } from '#lib/photos/common/store/photos';
import { placeShootPhoto } from '#lib/photos/sorting/place-shoot-photo';
import type { FaceOpinion } from '#lib/faces/second-opinion';
import type { FaceCandidate } from '#lib/faces/rules/second-opinion';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { listShootItems } from '#lib/photos/sorting/store/shoot-photos';
import { setGalleryCounter } from '#lib/galleries/store/gallery-counters';
import { admin } from '../support/admin';
import { type TestTenant, createTestTenant } from '../support/factories';
import { type Upload, newShoot, syntheticShoot } from '../support/shoot-uploads';
import { useTestTable } from '../support/test-table';
import { storeConfirmedReferenceFace } from '../support/face-galleries';

useTestTable();

/**
 * A second opinion that finds someone else's face in every photo a card gives to a person, as
 * the face model does with the photos after a missed card; it fills nothing in.
 */
function someoneElsesFace(candidate: FaceCandidate): FaceOpinion {
  const opinion: Pick<FaceOpinion, 'onCard' | 'withoutCard'> = {
    onCard: async () => ({ kind: 'withhold', reason: 'face_mismatch', distance: 0.74, candidates: [candidate] }),
    withoutCard: async () => undefined,
  };
  return opinion as FaceOpinion;
}

interface ReviewPage {
  photos: ReviewedPhoto[];
  counts: { withheld: number; unassigned: number };
  next: string | null;
}

interface ReviewedPhoto {
  photoId: string;
  path: string;
  camera: string | null;
  capturedAt: string | null;
  reason: string;
  heldFor: string | null;
  card: { photoId: string; path: string; code: string | null; personId: string | null } | null;
  candidates: FaceCandidate[];
}

describe('photo review, unassigned and release (admin CLI)', () => {
  let studio: TestTenant;
  let shoot: Awaited<ReturnType<typeof newShoot>>;
  let uploads: Upload[];
  /** The first photo after the first person's card, which the faces withhold from that person. */
  let withheld: Upload;
  let inGallery: string[];

  beforeEach(async () => {
    studio = await createTestTenant();
    shoot = await newShoot(studio, 2);
    inGallery = ['--tenant', studio.slug, '--gallery', shoot.scope.token];
    uploads = syntheticShoot(shoot.scope, shoot.persons);
    const card = uploads.findIndex(
      (upload) => upload.card.kind === 'card' && upload.card.code === shoot.persons[0]!.code,
    );
    withheld = uploads[card + 1]!;
    for (const upload of uploads.filter((upload) => upload !== withheld))
      await placeShootPhoto(shoot.scope, upload.facts, upload.card);
    await storeConfirmedReferenceFace(shoot.scope, shoot.persons[1]!.personId);
    const opinion = someoneElsesFace({ personId: shoot.persons[1]!.personId, distance: 0.31 });
    await placeShootPhoto(shoot.scope, withheld.facts, withheld.card, { opinion, opinionOf: () => opinion });
  });

  it('lists the withheld and the unassigned photos with their reason, camera, capture time, governing card and face candidates', async () => {
    // Act
    const json = await admin('photo', 'review', ...inGallery, '--json');
    const text = await admin('photo', 'review', ...inGallery);
    // Assess
    expect(json.code).toBe(0);
    const listed = (json.json() as ReviewPage).photos;
    const byPath = new Map(listed.map((photo) => [photo.path, photo]));
    const [first, second] = shoot.persons;
    const firstCard = uploads.find((upload) => upload.card.kind === 'card' && upload.card.code === first!.code)!.facts;
    expect(byPath.get(withheld.facts.path)).toEqual({
      photoId: withheld.facts.photoId,
      path: withheld.facts.path,
      camera: withheld.facts.camera,
      capturedAt: withheld.facts.capturedAt,
      reason: 'face_mismatch',
      heldFor: first!.personId,
      card: { photoId: firstCard.photoId, path: firstCard.path, code: first!.code, personId: first!.personId },
      candidates: [{ personId: second!.personId, distance: 0.31 }],
    });
    // Per camera, by capture time: two photos before the first card, one after a code nobody has, one after a card showing two codes, one without capture time.
    const unknownCodeCards = [
      expect.objectContaining({ code: 'ZZZZ', personId: null }),
      expect.objectContaining({ code: null, personId: null }),
    ];
    expect(listed.filter((photo) => photo.reason === 'before_first_card').map((photo) => photo.card)).toEqual([
      null,
      null,
      null,
      null,
    ]);
    expect(listed.filter((photo) => photo.reason === 'unknown_code').map((photo) => photo.card)).toEqual([
      ...unknownCodeCards,
      ...unknownCodeCards,
    ]);
    expect(listed.filter((photo) => photo.reason === 'no_capture_time')).toHaveLength(2);
    expect(listed).toHaveLength(1 + 4 + 4 + 2);
    expect(text.out).toMatch(
      /^11 photo\(s\) to review in the shoot of \w+: 1 withheld, 10 unassigned; 11 on this page$/m,
    );
    expect(text.out).toMatch(
      new RegExp(
        `${withheld.facts.photoId}\\s+.*face mismatch\\s+${first!.code} \\(${first!.personId}\\)\\s+${second!.personId} 0\\.31`,
      ),
    );
    expect(text.out).toMatch(/unknown code\s+ZZZZ \(nobody\)/);
    expect(text.out).toMatch(/unknown code\s+several codes \(nobody\)/);
  });

  it('leaves the withheld photos out of photo unassigned', async () => {
    // Act
    const run = await admin('photo', 'unassigned', ...inGallery, '--json');
    // Assess
    expect(run.code).toBe(0);
    const listed = (run.json() as ReviewPage).photos;
    expect(listed).toHaveLength(10);
    expect(listed.map((photo) => photo.photoId)).not.toContain(withheld.facts.photoId);
    expect(listed.every((photo) => photo.heldFor === null)).toBe(true);
  });

  it('releases a withheld photo to the person its card names, and counts it out of the withheld', async () => {
    // Prepare
    const person = shoot.persons[0]!;
    const countersBefore = (await getGalleryConfiguration(shoot.scope.tenantId, shoot.scope.token))!.counters;
    // Act
    const run = await admin('photo', 'release', ...inGallery, '--photo', withheld.facts.photoId);
    // Assess
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/^Released pho_\w+ to the person its card names; later cards leave it there$/);
    expect((await listPhotos(shoot.scope, person.personId)).map((photo) => photo.photoId)).toContain(
      withheld.facts.photoId,
    );
    const counters = (await getGalleryConfiguration(shoot.scope.tenantId, shoot.scope.token))!.counters;
    expect(countersBefore.photosWithheld).toBe(1);
    expect(counters).toMatchObject({
      photosWithheld: 0,
      photos: countersBefore.photos + 1,
      photosUnassigned: countersBefore.photosUnassigned,
    });
    const review = ((await admin('photo', 'review', ...inGallery, '--json')).json() as ReviewPage).photos;
    expect(review.map((photo) => photo.photoId)).not.toContain(withheld.facts.photoId);
  });

  it.each([
    [
      'a photo that is not withheld',
      () => uploads.find((upload) => upload.card.kind === 'photo' && upload.facts.capturedAt === null)!.facts.photoId,
      2,
      /is not withheld/,
    ],
    [
      'a camera card',
      () => uploads.find((upload) => upload.card.kind === 'card')!.facts.photoId,
      2,
      /is a camera card/,
    ],
    ['a photo the shoot does not have', () => 'pho_000000000000000000000000', 1, /has no photo "pho_0+"/],
  ])('refuses to release %s', async (_case, photoId, code, message) => {
    // Act
    const run = await admin('photo', 'release', ...inGallery, '--photo', photoId());
    // Assess
    expect([run.code, run.err.join('\n')]).toEqual([code, expect.stringMatching(message)]);
    expect((await getGalleryConfiguration(shoot.scope.tenantId, shoot.scope.token))!.counters.photosWithheld).toBe(1);
  });

  it("dismisses a withheld photo as nobody's: out of the review and the withheld, among the unassigned, and no card gives it back", async () => {
    // Prepare
    const countersBefore = (await getGalleryConfiguration(shoot.scope.tenantId, shoot.scope.token))!.counters;
    // Act
    const run = await admin('photo', 'dismiss', ...inGallery, '--photo', withheld.facts.photoId);
    await placeShootPhoto(shoot.scope, withheld.facts, withheld.card); // its card's placement arrives again
    // Assess
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/^Dismissed pho_\w+ as nobody's/);
    const review = ((await admin('photo', 'review', ...inGallery, '--json')).json() as ReviewPage).photos;
    expect(review.map((photo) => photo.photoId)).not.toContain(withheld.facts.photoId);
    expect(review).toHaveLength(10);
    expect(((await admin('photo', 'review', ...inGallery, '--json')).json() as ReviewPage).counts).toEqual({
      withheld: 0,
      unassigned: 10,
    });
    for (const person of shoot.persons)
      expect((await listPhotos(shoot.scope, person.personId)).map((photo) => photo.photoId)).not.toContain(
        withheld.facts.photoId,
      );
    const counters = (await getGalleryConfiguration(shoot.scope.tenantId, shoot.scope.token))!.counters;
    expect(counters).toMatchObject({
      photosWithheld: 0,
      photos: countersBefore.photos,
      photosUnassigned: countersBefore.photosUnassigned + 1,
    });
  });

  it('takes a dismissed photo from the person who had it, and lets a later assignment by hand give it to someone', async () => {
    // Prepare: a photo the second person's card gave them
    const person = shoot.persons[1]!;
    const theirs = (await listPhotos(shoot.scope, person.personId))[0]!;
    const countersBefore = (await getGalleryConfiguration(shoot.scope.tenantId, shoot.scope.token))!.counters;
    // Act
    const dismissed = await admin('photo', 'dismiss', ...inGallery, '--photo', theirs.photoId);
    const photosAfterDismissal = await listPhotos(shoot.scope, person.personId);
    const countersAfterDismissal = (await getGalleryConfiguration(shoot.scope.tenantId, shoot.scope.token))!.counters;
    const assigned = await admin(
      'photo',
      'assign',
      ...inGallery,
      '--photo',
      theirs.photoId,
      '--person',
      shoot.persons[0]!.personId,
    );
    // Assess
    expect([dismissed.code, assigned.code]).toEqual([0, 0]);
    expect(photosAfterDismissal.map((photo) => photo.photoId)).not.toContain(theirs.photoId);
    expect(countersAfterDismissal).toMatchObject({
      photos: countersBefore.photos - 1,
      photosUnassigned: countersBefore.photosUnassigned + 1,
    });
    expect((await listPhotos(shoot.scope, shoot.persons[0]!.personId)).map((photo) => photo.photoId)).toContain(
      theirs.photoId,
    );
  });

  it.each([
    [
      'a camera card',
      () => uploads.find((upload) => upload.card.kind === 'card')!.facts.photoId,
      2,
      /is a camera card/,
    ],
    ['a photo the shoot does not have', () => 'pho_000000000000000000000000', 1, /has no photo "pho_0+"/],
  ])('refuses to dismiss %s', async (_case, photoId, code, message) => {
    // Act
    const run = await admin('photo', 'dismiss', ...inGallery, '--photo', photoId());
    // Assess
    expect([run.code, run.err.join('\n')]).toEqual([code, expect.stringMatching(message)]);
    expect(((await admin('photo', 'review', ...inGallery, '--json')).json() as ReviewPage).photos).toHaveLength(11);
  });

  it('pages the queue in its order: each page one Query of the index, the next page after the cursor, the counts of the whole queue on every page', async () => {
    // Prepare
    const wholeRun = await admin('photo', 'review', ...inGallery, '--limit', '200', '--json');
    if (wholeRun.code !== 0) throw new Error(wholeRun.err.join('\n'));
    const whole = (wholeRun.json() as ReviewPage).photos;
    // Act
    const pages: ReviewPage[] = [];
    let after: string[] = [];
    do {
      const run = await admin('photo', 'review', ...inGallery, '--limit', '4', ...after, '--json');
      if (run.code !== 0) throw new Error(run.err.join('\n'));
      const page = run.json() as ReviewPage;
      pages.push(page);
      after = page.next ? ['--after', page.next] : [];
    } while (after.length > 0 && pages.length < 10);
    const refused = await admin('photo', 'review', ...inGallery, '--after', 'not-a-cursor');
    // Assess
    expect(pages.map((page) => page.photos.length)).toEqual([4, 4, 3]);
    expect(pages.flatMap((page) => page.photos)).toEqual(whole);
    expect(pages.every((page) => page.counts.withheld === 1 && page.counts.unassigned === 10)).toBe(true);
    const order = whole.map((photo) => [photo.camera ?? '', photo.capturedAt ?? '~', photo.path].join('#'));
    expect(order).toEqual([...order].sort());
    expect(refused.code).not.toBe(0);
    expect(refused.err.join('\n')).toMatch(/cursor/);
  });

  it('backfills the index of a shoot sorted before it, and recounts the dismissed photos', async () => {
    // Prepare: the index entries and the dismissed count as a shoot sorted before them has none
    await admin('photo', 'dismiss', ...inGallery, '--photo', withheld.facts.photoId);
    const items = await listShootItems(shoot.scope);
    await Promise.all(
      items.map((item) =>
        db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { pk: item.pk, sk: item.sk },
            UpdateExpression: 'REMOVE gsi1pk, gsi1sk',
          }),
        ),
      ),
    );
    await setGalleryCounter(shoot.scope, 'photosDismissed', 0);
    const emptied = ((await admin('photo', 'review', ...inGallery, '--json')).json() as ReviewPage).photos;
    // Act
    const run = await admin('photo', 'review-backfill', ...inGallery);
    const again = await admin('photo', 'review-backfill', ...inGallery);
    // Assess
    expect(emptied).toEqual([]);
    expect(run.out).toMatch(/^10 photo\(s\) put in the review queue's index of \w+; 1 dismissed photo\(s\) counted$/m);
    expect(again.out).toMatch(/^0 photo\(s\) put/m);
    const review = (await admin('photo', 'review', ...inGallery, '--json')).json() as ReviewPage;
    expect(review.photos).toHaveLength(10);
    expect(review.counts).toEqual({ withheld: 0, unassigned: 10 });
  });
});
