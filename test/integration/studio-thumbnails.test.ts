import sharp from 'sharp';
import { deleteObjectForGood, findMediaObject, listObjectVersions } from '#lib/platform/media-bucket';
import { photoObjectKey, selfieObjectKey, thumbnailKey, thumbnailPrefix } from '#lib/platform/media-keys';
import { listPhotos } from '#lib/photos/common/store/photos';
import { eraseParticipantsOfGallery, erasePersons } from '#lib/privacy/erasure';
import { THUMBNAIL_SIZE, ThumbnailCache } from '../../scripts/studio/thumbnails';
import { createTestTenant } from '../support/factories';
import { makeJpeg, uploadObject } from '../support/media';
import { reviewShoot } from '../support/review-shoot';
import { useTestTable } from '../support/test-table';

useTestTable();

/** The keys of the thumbnails stored for a gallery's photos and selfies. */
async function thumbnailsOfGallery(tenantId: string, token: string): Promise<string[]> {
  const prefixes = [`photos/${tenantId}/${token}/`, `selfies/${tenantId}/${token}/`].map(thumbnailPrefix);
  return (await Promise.all(prefixes.map(listObjectVersions)))
    .flat()
    .map((version) => version.key)
    .sort();
}

const thumbnailOf = (objectKey: string) => thumbnailKey(objectKey, THUMBNAIL_SIZE);

describe('studio thumbnails in the media bucket', () => {
  it('stores a thumbnail once, without metadata, and a later start of the console takes it without the photo', async () => {
    // Prepare
    const { withheld } = await reviewShoot(await createTestTenant());
    const photoKey = withheld.facts.objectKey;
    // Act
    const made = await new ThumbnailCache().get(photoKey);
    const stored = await findMediaObject(thumbnailOf(photoKey));
    await deleteObjectForGood(photoKey);
    const afterRestart = await new ThumbnailCache().get(photoKey);
    // Assess
    expect(Buffer.from(stored!.bytes)).toEqual(made);
    const drawn = await sharp(made).metadata();
    expect([drawn.format, drawn.width, drawn.height, drawn.exif]).toEqual(['jpeg', 320, 213, undefined]);
    expect(afterRestart).toEqual(made);
  });

  it("erases a person's thumbnails with the person: of their shoot photos and of their folder, and no one else's", async () => {
    // Prepare: thumbnails of two of the first person's shoot photos, one photo of their folder, and one of the second person's photos
    const { shoot } = await reviewShoot(await createTestTenant(), { images: 'all' });
    const [erased, kept] = shoot.persons;
    const folderPhoto = photoObjectKey({ ...shoot.scope, personId: erased!.personId, fileName: 'extra.jpg' });
    await uploadObject(folderPhoto, makeJpeg(64, 48));
    const erasedShootPhotos = (await listPhotos(shoot.scope, erased!.personId))
      .slice(0, 2)
      .map((photo) => photo.objectKey);
    const keptPhoto = (await listPhotos(shoot.scope, kept!.personId))[0]!.objectKey;
    const cache = new ThumbnailCache();
    for (const key of [...erasedShootPhotos, folderPhoto, keptPhoto]) expect(await cache.get(key)).toBeDefined();
    const before = await thumbnailsOfGallery(shoot.scope.tenantId, shoot.scope.token);
    // Act
    await erasePersons(shoot.scope, { personId: erased!.personId });
    // Assess
    expect(before).toEqual([...erasedShootPhotos, folderPhoto, keptPhoto].map(thumbnailOf).sort());
    expect(await thumbnailsOfGallery(shoot.scope.tenantId, shoot.scope.token)).toEqual([thumbnailOf(keptPhoto)]);
  });

  it("erases every thumbnail of a gallery's photos and selfies with its participants, and leaves another gallery's", async () => {
    // Prepare
    const tenant = await createTestTenant();
    const [{ shoot }, { shoot: other }] = [
      await reviewShoot(tenant, { images: 'all' }),
      await reviewShoot(tenant, { images: 'all' }),
    ];
    const selfie = selfieObjectKey(shoot.scope.tenantId, shoot.scope.token, shoot.persons[0]!.personId);
    await uploadObject(selfie, makeJpeg(48, 48));
    const photos = (await listPhotos(shoot.scope, shoot.persons[1]!.personId))
      .slice(0, 2)
      .map((photo) => photo.objectKey);
    const otherPhoto = (await listPhotos(other.scope, other.persons[0]!.personId))[0]!.objectKey;
    const cache = new ThumbnailCache();
    for (const key of [selfie, ...photos, otherPhoto]) expect(await cache.get(key)).toBeDefined();
    // Act
    await eraseParticipantsOfGallery(shoot.scope);
    // Assess
    expect(await thumbnailsOfGallery(shoot.scope.tenantId, shoot.scope.token)).toEqual([]);
    expect(await thumbnailsOfGallery(other.scope.tenantId, other.scope.token)).toEqual([thumbnailOf(otherPhoto)]);
  });
});
