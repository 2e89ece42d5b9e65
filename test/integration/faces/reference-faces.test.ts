import { listReferenceFaces } from '#lib/faces/store/reference-faces';
import { changeFaceMatching } from '#lib/faces/face-matching-switch';
import { describeReferenceFace } from '#lib/faces/reference-faces';
import * as mediaBucket from '#lib/platform/media-bucket';
import { deleteMediaObject } from '#lib/platform/media-bucket';
import { selfieObjectKey } from '#lib/platform/media-keys';
import { erasePersons } from '#lib/privacy/erasure';
import { applyGalleryRetention, emptyRetentionTally } from '#lib/privacy/retention';
import { switchFaceMatching } from '#lib/privacy/face-matching';
import { withdrawFaceConsent } from '#lib/privacy/face-consent';
import { updateGallerySettings } from '#lib/galleries/store/galleries';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { handler } from '../../../functions/faces/describe-reference-faces';
import { startChangeStream } from '../../../scripts/local/change-stream';
import { packagedFaces } from '../../../scripts/faces/packaged-faces';
import { createTestTenant } from '../../support/factories';
import { checkInWithSelfie, createFaceGallery, descriptorItems } from '../../support/face-galleries';
import { useTestTable } from '../../support/test-table';

useTestTable({ stream: true });

describe('reference faces', () => {
  it('are described from the stream for consenting persons only, and erased with them, leaving no descriptor', async () => {
    // Prepare: the stream function reading DynamoDB Local's stream, as Lambda's event source does
    const stream = await startChangeStream({
      endpoint: process.env.DYNAMODB_ENDPOINT!,
      tableName: process.env.TABLE_NAME!,
      handler,
      pollMs: 50,
    });
    try {
      const { tenant } = await createTestTenant();
      const scope = await createFaceGallery(tenant);
      const [first, second] = await packagedFaces();
      // Act
      const consenting = await checkInWithSelfie(tenant, scope, 'consenting', true, first!.image);
      const declining = await checkInWithSelfie(tenant, scope, 'declining', false, second!.image);
      await stream.caughtUp();
      // Assess
      expect((await listReferenceFaces(scope)).map((face) => [face.personId, face.descriptor.length])).toEqual([
        [consenting.personId, 128],
      ]);
      expect((await listReferenceFaces(scope)).some((face) => face.personId === declining.personId)).toBe(false);
      const receipt = await erasePersons(scope, { personId: consenting.personId });
      expect(receipt.referenceFaces).toBe(1);
      expect(await descriptorItems(scope)).toEqual([]);
    } finally {
      await stream.stop();
    }
  }, 120_000);

  it('are deleted when face matching is switched off, and described again when it is switched on', async () => {
    const { tenant } = await createTestTenant();
    const scope = await createFaceGallery(tenant, 'off');
    const [first] = await packagedFaces();
    const person = await checkInWithSelfie(tenant, scope, 'consenting', true, first!.image);
    // Act and assess: off describes nothing; on describes the consenting person; off again deletes it
    expect(await changeFaceMatching(scope, { mode: 'withhold' })).toEqual({ described: { stored: 1 }, deleted: 0 });
    expect((await listReferenceFaces(scope)).map((face) => face.personId)).toEqual([person.personId]);
    expect(await changeFaceMatching(scope, { mode: 'off' })).toEqual({ described: {}, deleted: 1 });
    expect(await listReferenceFaces(scope)).toEqual([]);
  }, 120_000);

  describe.each([
    ['the studio switches face matching off', (scope: GalleryScope) => switchFaceMatching(scope, { mode: 'off' })],
    [
      'the check-in stops asking for face consent',
      (scope: GalleryScope) =>
        updateGallerySettings(scope.tenantId, scope.token, {
          granularConsents: { face: false, notification: false, hrExport: false },
        }),
    ],
    [
      "the studio withdraws the person's face consent",
      (scope: GalleryScope, personId: string) => withdrawFaceConsent(scope, personId),
    ],
    [
      'retention removes the selfies (past the selfie period of a gallery without shooting days)',
      (scope: GalleryScope) => applyGalleryRetention(scope, Date.now() + 31 * 24 * 3600 * 1000, emptyRetentionTally()),
    ],
  ])('a description in flight while %s', (_, change) => {
    afterEach(() => jest.restoreAllMocks());

    it('stores no reference face: the write is conditional on the person, the selfie and the gallery', async () => {
      // Prepare: the change lands after the description has read the gallery, the person and the selfie
      const { tenant } = await createTestTenant();
      const scope = await createFaceGallery(tenant);
      const [first] = await packagedFaces();
      const person = await checkInWithSelfie(tenant, scope, 'consenting', true, first!.image);
      const readSelfie = mediaBucket.findMediaObject;
      jest.spyOn(mediaBucket, 'findMediaObject').mockImplementation(async (key) => {
        const selfie = await readSelfie(key);
        await change(scope, person.personId);
        return selfie;
      });
      // Act
      const outcome = await describeReferenceFace(scope, person.personId);
      // Assess
      expect(outcome).toBe('changed_meanwhile');
      expect(await listReferenceFaces(scope)).toEqual([]);
    }, 120_000);
  });

  it('describes nothing once the selfie is gone (retention or erasure came first), and tells so', async () => {
    const { tenant } = await createTestTenant();
    const scope = await createFaceGallery(tenant);
    const [first] = await packagedFaces();
    const person = await checkInWithSelfie(tenant, scope, 'consenting', true, first!.image);
    await deleteMediaObject(selfieObjectKey(scope.tenantId, scope.token, person.personId));
    // Act
    const outcome = await describeReferenceFace(scope, person.personId);
    // Assess
    expect(outcome).toBe('selfie_gone');
    expect(await listReferenceFaces(scope)).toEqual([]);
  }, 60_000);
});
