import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { getReferenceFace } from '#lib/faces/store/reference-faces';
import { getPerson } from '#lib/persons/store/persons';
import { listShootItems } from '#lib/photos/sorting/store/shoot-photos';
import { erasePersons } from '#lib/privacy/erasure';
import { applyGalleryRetention, emptyRetentionTally } from '#lib/privacy/retention';
import { withdrawFaceConsent } from '#lib/privacy/face-consent';
import { forgetFaceCandidates } from '#lib/photos/sorting/forget-face-candidates';
import { replaceFaceCandidates } from '#lib/photos/sorting/store/face-candidates';
import { getGalleryConfiguration } from '#lib/galleries/store/galleries';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { admin } from '../../support/admin';
import { observingCommands } from '../../support/sent-commands';
import { candidatesOf, withheldShoot } from '../../support/face-candidates';
import { useTestTable } from '../../support/test-table';

useTestTable();

const DAY_MS = 24 * 3600 * 1000;

/**
 * Runs `act`, and `step` once just before the first transaction that writes the photo
 * `photoId`'s face candidates is sent: what the placement read and decided is fixed by then,
 * and `step` runs whole between that and the write.
 */
async function beforeCandidatesWritten(photoId: string, step: () => Promise<unknown>, act: () => Promise<unknown>) {
  let stepped = false;
  await observingCommands(act, async (commandName, input) => {
    const text = JSON.stringify(input, (_, value: unknown) => (value instanceof Set ? [...value] : value));
    if (
      stepped ||
      commandName !== 'TransactWriteItemsCommand' ||
      !text.includes(photoId) ||
      !text.includes('candidates')
    )
      return;
    stepped = true;
    await step();
  });
  return stepped;
}

describe('face candidates after a face goes', () => {
  it('keeps both candidates of the withheld photo before anything goes (the premise of the cases below)', async () => {
    const { scope, forgotten, kept, withheld } = await withheldShoot();
    expect((await candidatesOf(scope, withheld.facts.photoId)).review).toEqual([
      { personId: forgotten.personId, distance: 0.31 },
      { personId: kept.personId, distance: 0.45 },
    ]);
  });

  it('takes an erased person out of the candidates of the photos withheld from others', async () => {
    // Prepare
    const { scope, forgotten, kept, withheld, inGallery } = await withheldShoot();
    // Act
    await erasePersons(scope, { personId: forgotten.personId });
    // Assess: stored and shown, only the person who stays
    const remaining = [{ personId: kept.personId, distance: 0.45 }];
    expect(await candidatesOf(scope, withheld.facts.photoId)).toEqual({ review: remaining, stored: remaining });
    const review = await admin('photo', 'review', ...inGallery, '--json');
    expect(review.code).toBe(0);
    expect(review.out).not.toContain(forgotten.personId);
  });

  it('withdraws a face consent by the studio (admin CLI): consent false, reference face gone, out of every candidate list', async () => {
    // Prepare
    const { scope, forgotten, kept, withheld, inGallery } = await withheldShoot();
    // Act
    const run = await admin('person', 'face-consent', ...inGallery, '--person', forgotten.personId, '--off', '--json');
    const again = await admin(
      'person',
      'face-consent',
      ...inGallery,
      '--person',
      forgotten.personId,
      '--off',
      '--json',
    );
    // Assess
    expect(run.code).toBe(0);
    expect(run.json()).toEqual({ outcome: 'withdrawn', referenceFaces: 1, candidateLists: 1, changed: false });
    expect(again.json()).toEqual({ outcome: 'withdrawn', referenceFaces: 0, candidateLists: 0, changed: false });
    const text = await admin('person', 'face-consent', ...inGallery, '--person', forgotten.personId, '--off');
    expect(text.out).toContain(`Face consent of person ${forgotten.personId} withdrawn`);
    expect(text.out).toMatch(/reference faces deleted +0/);
    expect((await getPerson(scope, forgotten.personId))?.consents.faceConsent).toBe(false);
    expect(await getReferenceFace(scope, forgotten.personId)).toBeUndefined();
    expect(await getReferenceFace(scope, kept.personId)).toBeDefined();
    const remaining = [{ personId: kept.personId, distance: 0.45 }];
    expect(await candidatesOf(scope, withheld.facts.photoId)).toEqual({ review: remaining, stored: remaining });
  });

  it('refuses a withdrawal without --off, and for a person the gallery does not have', async () => {
    const { inGallery, forgotten } = await withheldShoot();
    expect((await admin('person', 'face-consent', ...inGallery, '--person', forgotten.personId)).code).toBe(2);
    const unknown = await admin('person', 'face-consent', ...inGallery, '--person', 'nobody', '--off');
    expect(unknown.code).toBe(1);
    expect(unknown.err.join('\n')).toContain('nobody');
  });

  it('takes everyone out of every candidate list when face matching is switched off (admin CLI)', async () => {
    // Prepare
    const { scope, withheld, inGallery } = await withheldShoot();
    // Act
    const run = await admin('gallery', 'face-matching', ...inGallery, '--mode', 'off');
    // Assess
    expect(run.code).toBe(0);
    expect(run.out).toContain('Took everyone out of the face candidates of 1 photo(s)');
    expect(await candidatesOf(scope, withheld.facts.photoId)).toEqual({ review: [], stored: undefined });
  });

  it('takes everyone out of every candidate list when the check-in stops asking for face consent (admin CLI)', async () => {
    // Prepare
    const { scope, forgotten, withheld, inGallery } = await withheldShoot();
    // Act: the gallery has no mode of its own, so not asking for face consent switches matching off
    const run = await admin('gallery', 'update', ...inGallery, '--granular-consents', 'notification');
    // Assess
    expect(run.code).toBe(0);
    expect(run.out).toContain('deleted 2 reference face(s) and took everyone out of the face candidates of 1 photo(s)');
    expect(await getReferenceFace(scope, forgotten.personId)).toBeUndefined();
    expect(await candidatesOf(scope, withheld.facts.photoId)).toEqual({ review: [], stored: undefined });
  });

  it('takes everyone out of every candidate list once retention removes the selfies and reference faces', async () => {
    // Prepare: the gallery has no shooting day, so retention counts from its creation
    const { scope, forgotten, kept, withheld } = await withheldShoot();
    const { gallery } = (await getGalleryConfiguration(scope.tenantId, scope.token))!;
    const tally = emptyRetentionTally();
    // Act: past the selfie period (30 days), well before the person period
    await applyGalleryRetention(scope, Date.parse(gallery.createdAt) + 31 * DAY_MS, tally);
    // Assess
    expect(tally.referenceFacesDeleted).toBe(2);
    expect(await getReferenceFace(scope, forgotten.personId)).toBeUndefined();
    expect(await getReferenceFace(scope, kept.personId)).toBeUndefined();
    expect(await candidatesOf(scope, withheld.facts.photoId)).toEqual({ review: [], stored: undefined });
  });

  it('forgets candidates idempotently', async () => {
    // Prepare
    const { scope, forgotten, kept, withheld } = await withheldShoot();
    // Act
    const first = await forgetFaceCandidates(scope, new Set([forgotten.personId]));
    const second = await forgetFaceCandidates(scope, new Set([forgotten.personId]));
    // Assess
    expect([first, second]).toEqual([1, 0]);
    expect((await candidatesOf(scope, withheld.facts.photoId)).stored).toEqual([
      { personId: kept.personId, distance: 0.45 },
    ]);
  });

  it('never overwrites candidates a placement replaced after they were read', async () => {
    // Prepare: the photo as the forgetting reads it, then a placement gives it candidates of its own
    const { scope, forgotten, kept, withheld } = await withheldShoot();
    const read = (await listShootItems(scope)).find(
      (item) => item.kind === 'photo' && item.photoId === withheld.facts.photoId,
    )!;
    const placed = [{ personId: kept.personId, distance: 0.2 }];
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { pk: read.pk, sk: read.sk },
        UpdateExpression: 'SET candidates = :placed',
        ExpressionAttributeValues: { ':placed': placed },
      }),
    );
    // Act: the write of what was read
    const written = await replaceFaceCandidates(
      scope,
      read,
      [
        { personId: forgotten.personId, distance: 0.31 },
        { personId: kept.personId, distance: 0.45 },
      ],
      [{ personId: kept.personId, distance: 0.45 }],
    );
    // Assess
    expect(written).toBe(false);
    expect((await candidatesOf(scope, withheld.facts.photoId)).stored).toEqual(placed);
  });

  describe.each([
    ['is erased', (scope: GalleryScope, personId: string) => erasePersons(scope, { personId })],
    ['withdraws their face consent', (scope: GalleryScope, personId: string) => withdrawFaceConsent(scope, personId)],
  ])('a placement whose opinion named a person who %s before its write lands', (_, faceGoes) => {
    it('takes that person out of the candidates it wrote: it reads the reference faces again once written', async () => {
      // Prepare: the photo's opinion names both persons; the reference face and the sweep come between it and the write
      const { scope, forgotten, kept, withheld, placeWithheld } = await withheldShoot(undefined, {
        withheldPlaced: false,
      });
      // Act
      const stepped = await beforeCandidatesWritten(
        withheld.facts.photoId,
        () => faceGoes(scope, forgotten.personId),
        placeWithheld,
      );
      // Assess
      expect(stepped).toBe(true);
      expect(await getReferenceFace(scope, forgotten.personId)).toBeUndefined();
      const remaining = [{ personId: kept.personId, distance: 0.45 }];
      expect(await candidatesOf(scope, withheld.facts.photoId)).toEqual({ review: remaining, stored: remaining });
    });
  });
});
