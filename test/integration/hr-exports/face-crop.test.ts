import { describeReferenceFace } from '#lib/faces/reference-faces';
import { confirmReferenceFace, listReferenceFaces } from '#lib/faces/store/reference-faces';
import { describeFaces } from '#lib/faces/adapters/face-model';
import { faceDistance } from '#lib/faces/rules/face-descriptors';
import { DEFAULT_FACE_THRESHOLDS } from '#lib/galleries/rules/face-matching';
import { createHrExport } from '#lib/hr-exports/create-hr-export';
import { readHrExport } from '#lib/hr-exports/get-hr-export';
import { cropPortrait } from '#lib/hr-exports/adapters/portrait-crop';
import { listPhotos } from '#lib/photos/common/store/photos';
import { cropFace, packagedFaceBoxes, packagedPhoto } from '../../../scripts/faces/packaged-faces';
import { type HrExportPipeline, startHrExportPipeline } from '../../../scripts/local/local-hr-export-queue';
import { checkInWithSelfie, createFaceGallery, placeWithFaces } from '../../support/face-galleries';
import { createTestTenant } from '../../support/factories';
import { setPersonFacts, unzip } from '../../support/hr-exports';
import { useTestTable } from '../../support/test-table';

useTestTable();

const GROUP_PHOTO = '@vladmandic/face-api/demo/sample1.jpg';
const SIZE = 256;

let pipeline: HrExportPipeline;
beforeAll(async () => {
  pipeline = await startHrExportPipeline();
});
afterAll(() => pipeline.stop());

const centreOf = (box: { x: number; y: number; width: number; height: number }) => ({
  x: box.x + box.width / 2,
  y: box.y + box.height / 2,
});

describe('HR export portraits of a photo the faces agreed on', () => {
  it("are cut around the person's own face, not the photo's most salient part, even with colleagues beside them", async () => {
    // Prepare: a group photo of three; the participant (the leftmost) checked in with a selfie cut from it and agreed to the HR export.
    const studio = await createTestTenant();
    const scope = await createFaceGallery(studio.tenant, 'withhold', { asksHrConsent: true });
    const photo = packagedPhoto(GROUP_PHOTO);
    const [leftmost] = packagedFaceBoxes()
      .filter((face) => face.source === GROUP_PHOTO)
      .sort((a, b) => a.box.left - b.box.left);
    const person = await checkInWithSelfie(
      studio.tenant,
      scope,
      'leftcolleague',
      true,
      await cropFace(photo, leftmost!),
    );
    expect(await describeReferenceFace(scope, person.personId)).toBe('stored');
    // A portrait of her own card confirmed the selfie earlier (only a confirmed face withholds or
    // crops, docs/photos.md#whose-face-the-selfie-shows); in the group photo she is not the main face, which confirms nothing.
    expect(await confirmReferenceFace(scope, person.personId, 'pho_earlier_portrait', new Date().toISOString())).toBe(
      true,
    );
    await setPersonFacts(scope, person.personId, { hrExportConsent: true });
    const [reference] = await listReferenceFaces(scope);

    // Act: the card, then the group photo; then the export.
    await placeWithFaces(scope, 1, { kind: 'card', code: person.code }, photo);
    expect((await placeWithFaces(scope, 2, { kind: 'photo' }, photo)).placement).toEqual({
      kind: 'photo',
      personId: person.personId,
    });
    const created = await createHrExport(studio.tenant, scope.token, { size: SIZE });
    await pipeline.settled();
    const ready = await readHrExport(studio.tenant, scope.token, created.exportId);

    // Assess: the photo keeps where the person's face is, inside the region it was cut from.
    expect(ready.status).toBe('ready');
    const [kept] = await listPhotos(scope, person.personId);
    const keptCentre = centreOf(kept!.faceBox!);
    const { left, top, width, height } = leftmost!.box;
    expect(
      keptCentre.x > left && keptCentre.x < left + width && keptCentre.y > top && keptCentre.y < top + height,
    ).toBe(true);
    // The portrait is the face-box cut, and the face nearest its middle is the participant's.
    const portraits = [
      ...(await unzip(Buffer.from(await (await fetch(ready.downloadUrl!)).arrayBuffer()))).entries(),
    ].filter(([name]) => name.endsWith('.jpg'));
    expect(portraits).toHaveLength(1);
    const [, portrait] = portraits[0]!;
    expect(portrait.equals(await cropPortrait(photo, SIZE, kept!.faceBox))).toBe(true);
    const faces = await describeFaces(portrait);
    const middle = SIZE / 2;
    const central = faces.sort(
      (a, b) => Math.abs(centreOf(a.box).x - middle) - Math.abs(centreOf(b.box).x - middle),
    )[0];
    expect(faceDistance(central!.descriptor, reference!.descriptor)).toBeLessThanOrEqual(DEFAULT_FACE_THRESHOLDS.match);
    expect(Math.abs(centreOf(central!.box).x - middle)).toBeLessThan(SIZE / 4);
  }, 120_000);
});
