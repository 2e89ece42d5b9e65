import { PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { submitCheckin } from '#lib/checkin/submit-checkin';
import { parseSubmitCheckin } from '#lib/checkin/checkin-schemas';
import { createGallery, getGalleryConfiguration } from '#lib/galleries/store/galleries';
import { type FaceMatchingMode, faceMatchingOf } from '#lib/galleries/rules/face-matching';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import type { Tenant } from '#lib/tenants/store/tenants';
import { placementOpinions } from '#lib/faces/second-opinion';
import { inboxObjectKey, photoIdOf } from '#lib/platform/media-keys';
import { placeShootPhoto } from '#lib/photos/sorting/place-shoot-photo';
import type { CardReading } from '#lib/photos/sorting/rules/shoot-sequence';
import { uploadObject } from './media';
import { keys } from './table-keys';

/** A gallery whose check-in takes a selfie and asks for face consent (and the HR consent when `asksHrConsent`); `faceMatching` as given, else the default. */
export async function createFaceGallery(
  tenant: Tenant,
  faceMatching?: FaceMatchingMode,
  { asksHrConsent = false } = {},
): Promise<GalleryScope> {
  const gallery = await createGallery(tenant.tenantId, {
    galleryName: 'Faces',
    isGroupShoot: true,
    selfieEnabled: true,
    selfieRequired: false,
    consentRequired: false,
    showShootingDaySelector: false,
    granularConsents: { face: true, notification: false, hrExport: asksHrConsent },
    ...(faceMatching ? { faceMatching } : {}),
  });
  return { tenantId: tenant.tenantId, token: gallery.token };
}

/** A free check-in with a selfie, as the check-in page sends it. */
export async function checkInWithSelfie(
  tenant: Tenant,
  scope: GalleryScope,
  name: string,
  faceConsent: boolean,
  selfie: Buffer,
): Promise<{ personId: string; code: string }> {
  const configuration = (await getGalleryConfiguration(scope.tenantId, scope.token))!;
  const request = parseSubmitCheckin({
    action: 'submitCheckin',
    token: scope.token,
    name,
    email: `${name}@example.com`,
    faceConsent,
    selfieBase64: selfie.toString('base64'),
  });
  return (await submitCheckin(tenant, configuration, request)) as { personId: string; code: string };
}

/**
 * A confirmed reference face as the description and a confirming card photo leave it, planted
 * for tests whose second opinion is scripted: a photo's candidates name only persons with one,
 * and a placement takes out those whose face is gone once it has written them.
 */
export async function storeConfirmedReferenceFace(
  scope: GalleryScope,
  personId: string,
  { confirmed = true } = {},
): Promise<void> {
  const at = new Date().toISOString();
  await db.send(
    new PutCommand({
      TableName: tableName,
      Item: {
        ...keys.referenceFace(scope.tenantId, scope.token, personId),
        personId,
        descriptor: new Uint8Array(Float32Array.from({ length: 128 }, () => 0.05).buffer),
        computedAt: at,
        // Unconfirmed: as a description leaves it, before a card photo of the person confirms it.
        ...(confirmed ? { confirmedAt: at, confirmedBy: 'pho_planted' } : {}),
      },
    }),
  );
}

/** Places one shoot photo (a card or a portrait) of camera A, second by second, with the faces' second opinion. */
export async function placeWithFaces(scope: GalleryScope, second: number, card: CardReading, image: Buffer) {
  const path = `cam/IMG_${String(second).padStart(4, '0')}.JPG`;
  const objectKey = inboxObjectKey({ ...scope, path });
  await uploadObject(objectKey, image);
  const facts = {
    photoId: photoIdOf(objectKey),
    objectKey,
    path,
    fileName: path.slice(4),
    camera: 'Camera A',
    capturedAt: `2027-05-03T10:00:${String(second).padStart(2, '0')}.000Z`,
    width: 1920,
    height: 1280,
    uploadedAt: '2027-05-03T12:00:00.000Z',
  };
  const settings = faceMatchingOf((await getGalleryConfiguration(scope.tenantId, scope.token))!.gallery);
  const placement = await placeShootPhoto(
    scope,
    facts,
    card,
    placementOpinions(scope, settings, { objectKey, bytes: image }),
  );
  return { photoId: facts.photoId, placement };
}

/** Every item of the table that holds a face descriptor; of `scope`'s gallery only when given. */
export async function descriptorItems(scope?: GalleryScope): Promise<Record<string, unknown>[]> {
  const { Items = [] } = await db.send(
    new ScanCommand({
      TableName: tableName,
      FilterExpression: 'attribute_exists(#descriptor)',
      ExpressionAttributeNames: { '#descriptor': 'descriptor' },
      ConsistentRead: true,
    }),
  );
  return scope ? Items.filter((item) => String(item.pk).includes(scope.token)) : Items;
}
