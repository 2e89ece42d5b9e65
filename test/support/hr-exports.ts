import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import JSZip from 'jszip';
import { handler as ingestPhoto } from '../../functions/photos/sorting/ingest-photo';
import { addShootingDay, createGallery } from '#lib/galleries/store/galleries';
import { photoObjectKey } from '#lib/platform/media-keys';
import { db, tableName } from '#lib/platform/table/client';
import { keys } from './table-keys';
import type { ApiAnswer, ApiCall } from './local-api';
import type { TestTenant } from './factories';
import { objectCreatedEvent, uploadObject } from './media';

type Api = { call(path: string, options?: ApiCall): Promise<ApiAnswer> };

/** A group-shoot gallery of the studio whose check-in asks for the HR consent, with one shooting day. */
export async function hrConsentGallery(studio: TestTenant): Promise<{ token: string; dayId: string }> {
  const gallery = await createGallery(studio.tenant.tenantId, {
    galleryName: 'Company portraits',
    isGroupShoot: true,
    selfieEnabled: false,
    selfieRequired: false,
    consentRequired: true,
    showShootingDaySelector: true,
    granularConsents: { face: false, notification: false, hrExport: true },
  });
  const day = await addShootingDay(studio.tenant.tenantId, gallery.token, {
    date: '2027-05-03',
    label: 'Head office',
    startTime: '09:00',
    endTime: '17:00',
  });
  return { token: gallery.token, dayId: day.id };
}

export interface PersonRow {
  name: string;
  employeeId?: string;
  email?: string;
  shootingDayId?: string;
}

/** Imports persons through the API; answers their IDs in order. */
export async function importPersons(
  api: Api,
  studio: TestTenant,
  token: string,
  persons: PersonRow[],
): Promise<string[]> {
  const answer = await api.call(`/groupshoot/${token}/persons`, {
    method: 'POST',
    headers: studio.serverHeaders,
    body: { persons },
  });
  if (answer.status !== 200) throw new Error(`import answered ${answer.status}`);
  return answer.body.persons.map((person: { personId: string }) => person.personId);
}

/**
 * Sets what a check-in or the pick would have set on a person item, straight in the table: the
 * HR consent, and the picked photo (the pick's use case is another feature's).
 */
export async function setPersonFacts(
  scope: { tenantId: string; token: string },
  personId: string,
  facts: { hrExportConsent?: boolean | null; pickedPhotoId?: string },
) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  if (facts.hrExportConsent !== undefined) {
    sets.push('consents.hrExportConsent = :consent');
    values[':consent'] = facts.hrExportConsent;
  }
  if (facts.pickedPhotoId !== undefined) {
    sets.push('#picked = :picked');
    names['#picked'] = 'pickedPhotoId';
    values[':picked'] = facts.pickedPhotoId;
  }
  await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.person(scope.tenantId, scope.token, personId),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: values,
    }),
  );
}

/** Uploads a photo under the person's folder and hands S3's notification to the ingest function; answers its photo ID. */
export async function deliverPersonPhoto(
  scope: { tenantId: string; token: string },
  personId: string,
  fileName: string,
  jpeg: Buffer,
  capturedAt?: string,
): Promise<string> {
  const key = photoObjectKey({ tenantId: scope.tenantId, token: scope.token, personId, fileName });
  await uploadObject(key, jpeg, capturedAt ? { 'captured-at': capturedAt } : {});
  await ingestPhoto(objectCreatedEvent(key));
  const { photoIdOf } = await import('#lib/platform/media-keys');
  return photoIdOf(key);
}

/** The files of a ZIP, by name. */
export async function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const zip = await JSZip.loadAsync(bytes);
  const files = new Map<string, Buffer>();
  for (const entry of Object.values(zip.files)) if (!entry.dir) files.set(entry.name, await entry.async('nodebuffer'));
  return files;
}
