import { confirmedReferenceFaces } from '#lib/faces/confirmed-reference-faces';
import { confirmReferenceFace, rejectReferenceFace } from '#lib/faces/store/reference-faces';
import { getGalleryConfiguration } from '#lib/galleries/store/galleries';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { withdrawFaceConsent } from '#lib/privacy/face-consent';
import { erasePersons } from '#lib/privacy/erasure';
import { type TestTenant, createTestTenant } from '../../support/factories';
import { checkInWithSelfie, createFaceGallery, storeConfirmedReferenceFace } from '../../support/face-galleries';
import { makeJpeg } from '../../support/media';
import { useTestTable } from '../../support/test-table';

useTestTable();

/**
 * The confirmed reference faces kept per warm instance (lib/faces/confirmed-reference-faces.ts):
 * read once per generation of the gallery's faces, and read again for the next photo once a write
 * that changes them has moved the generation.
 */

const generationOf = async (scope: GalleryScope) =>
  (await getGalleryConfiguration(scope.tenantId, scope.token))!.counters.referenceFacesGeneration;

const idsOf = (faces: { personId: string }[]) => faces.map((face) => face.personId).sort();

describe('the confirmed reference faces a sorting instance keeps', () => {
  let studio: TestTenant;
  let scope: GalleryScope;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    studio = await createTestTenant();
  });

  beforeEach(async () => {
    scope = await createFaceGallery(studio.tenant, 'fill');
    alice = (await checkInWithSelfie(studio.tenant, scope, 'alice', true, makeJpeg(64, 64))).personId;
    bob = (await checkInWithSelfie(studio.tenant, scope, 'bob', true, makeJpeg(64, 64))).personId;
    await storeConfirmedReferenceFace(scope, alice);
  });

  it('reads none for the second photo while the generation is the same, and reads them again without one', async () => {
    // Prepare
    const generation = await generationOf(scope);
    const first = await confirmedReferenceFaces(scope, generation);
    // A face written past the service's writes: only a read would find it.
    await storeConfirmedReferenceFace(scope, bob);
    // Act
    const second = await confirmedReferenceFaces(scope, generation);
    const unkept = await confirmedReferenceFaces(scope);
    // Assess
    expect(idsOf(first)).toEqual([alice]);
    expect(second).toBe(first);
    expect(idsOf(unkept)).toEqual([alice, bob].sort());
  });

  it.each([
    [
      'a face confirmed by a card photo',
      async (scope: GalleryScope, alice: string, bob: string) => {
        await storeConfirmedReferenceFace(scope, bob, { confirmed: false });
        expect(await confirmReferenceFace(scope, bob, 'pho_confirming', new Date().toISOString())).toBe(true);
        return [alice, bob];
      },
    ],
    [
      'a rejection of an unconfirmed face',
      async (scope: GalleryScope, alice: string, bob: string) => {
        await storeConfirmedReferenceFace(scope, bob, { confirmed: false });
        expect(await rejectReferenceFace(scope, bob, ['pho_a', 'pho_b'], new Date().toISOString())).toBe(true);
        return [alice];
      },
    ],
    [
      'a withdrawal of the face consent',
      async (scope: GalleryScope, alice: string) => {
        expect((await withdrawFaceConsent(scope, alice)).outcome).toBe('withdrawn');
        return [];
      },
    ],
    [
      "the person's erasure",
      async (scope: GalleryScope, alice: string) => {
        await erasePersons(scope, { personId: alice });
        return [];
      },
    ],
  ])('lets the next photo see %s', async (_change, change) => {
    // Prepare: the first photo has read the faces at the generation of its configuration
    const before = await generationOf(scope);
    const kept = await confirmedReferenceFaces(scope, before);
    // Act
    const expected = await change(scope, alice, bob);
    const after = await generationOf(scope);
    const next = await confirmedReferenceFaces(scope, after);
    // Assess
    expect(idsOf(kept)).toEqual([alice]);
    expect(after).toBeGreaterThan(before);
    expect(idsOf(next)).toEqual(expected.sort());
  });
});
