import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { createGallery, getGalleryConfiguration } from '#lib/galleries/store/galleries';
import { submitCheckin } from '#lib/checkin/submit-checkin';
import { parseSubmitCheckin } from '#lib/checkin/checkin-schemas';
import { listReferenceFaces } from '#lib/faces/store/reference-faces';
import { changeFaceMatching } from '#lib/faces/face-matching-switch';
import { describeReferenceFace } from '#lib/faces/reference-faces';
import { deleteMediaObject } from '#lib/platform/media-bucket';
import { selfieObjectKey } from '#lib/platform/media-keys';
import { erasePersons } from '#lib/privacy/erasure';
import { handler } from '../../../functions/faces/describe-reference-faces';
import { startChangeStream } from '../../../scripts/local/change-stream';
import { packagedFaces } from '../../../scripts/faces/packaged-faces';
import { createTestTenant } from '../../support/factories';
import { useTestTable } from '../../support/test-table';

useTestTable({ stream: true });

/** Every item of the table holding a face descriptor, of any gallery. */
async function descriptorItems(): Promise<Record<string, unknown>[]> {
  const { Items = [] } = await db.send(new ScanCommand({ TableName: tableName, FilterExpression: 'attribute_exists(#descriptor)', ExpressionAttributeNames: { '#descriptor': 'descriptor' }, ConsistentRead: true }));
  return Items;
}

async function checkIn(tenant: Awaited<ReturnType<typeof createTestTenant>>['tenant'], token: string, name: string, faceConsent: boolean, selfie: Buffer) {
  const configuration = (await getGalleryConfiguration(tenant.tenantId, token))!;
  const request = parseSubmitCheckin({ action: 'submitCheckin', token, name, email: `${name}@example.com`, faceConsent, selfieBase64: selfie.toString('base64') });
  return (await submitCheckin(tenant, configuration, request)) as { personId: string };
}

describe('reference faces', () => {
  it('are described from the stream for consenting persons only, and erased with them, leaving no descriptor', async () => {
    // Prepare: the stream function reading DynamoDB Local's stream, as Lambda's event source does
    const stream = await startChangeStream({ endpoint: process.env.DYNAMODB_ENDPOINT!, tableName: process.env.TABLE_NAME!, handler, pollMs: 50 });
    try {
      const { tenant } = await createTestTenant();
      const gallery = await createGallery(tenant.tenantId, {
        galleryName: 'Faces',
        isGroupShoot: true,
        selfieEnabled: true,
        selfieRequired: false,
        consentRequired: false,
        showShootingDaySelector: false,
        granularConsents: { face: true, notification: false, hrExport: false },
      });
      const scope = { tenantId: tenant.tenantId, token: gallery.token };
      const [first, second] = await packagedFaces();
      // Act
      const consenting = await checkIn(tenant, gallery.token, 'consenting', true, first!.image);
      const declining = await checkIn(tenant, gallery.token, 'declining', false, second!.image);
      await stream.caughtUp();
      // Assess
      expect((await listReferenceFaces(scope)).map((face) => [face.personId, face.descriptor.length])).toEqual([[consenting.personId, 128]]);
      expect((await listReferenceFaces(scope)).some((face) => face.personId === declining.personId)).toBe(false);
      const receipt = await erasePersons(scope, { personId: consenting.personId });
      expect(receipt.referenceFaces).toBe(1);
      expect((await descriptorItems()).filter((item) => String(item.pk).includes(gallery.token))).toEqual([]);
    } finally {
      await stream.stop();
    }
  }, 120_000);

  it('are deleted when face matching is switched off, and described again when it is switched on', async () => {
    const { tenant } = await createTestTenant();
    const gallery = await createGallery(tenant.tenantId, {
      galleryName: 'Faces',
      isGroupShoot: true,
      selfieEnabled: true,
      selfieRequired: false,
      consentRequired: false,
      showShootingDaySelector: false,
      granularConsents: { face: true, notification: false, hrExport: false },
      faceMatching: 'off',
    });
    const scope = { tenantId: tenant.tenantId, token: gallery.token };
    const [first] = await packagedFaces();
    const person = await checkIn(tenant, gallery.token, 'consenting', true, first!.image);
    // Act and assess: off describes nothing; on describes the consenting person; off again deletes it
    expect(await changeFaceMatching(scope, { mode: 'withhold' })).toEqual({ described: { stored: 1 }, deleted: 0 });
    expect((await listReferenceFaces(scope)).map((face) => face.personId)).toEqual([person.personId]);
    expect(await changeFaceMatching(scope, { mode: 'off' })).toEqual({ described: {}, deleted: 1 });
    expect(await listReferenceFaces(scope)).toEqual([]);
  }, 120_000);

  it('describes nothing once the selfie is gone (retention or erasure came first), and tells so', async () => {
    const { tenant } = await createTestTenant();
    const gallery = await createGallery(tenant.tenantId, {
      galleryName: 'Faces',
      isGroupShoot: true,
      selfieEnabled: true,
      selfieRequired: false,
      consentRequired: false,
      showShootingDaySelector: false,
      granularConsents: { face: true, notification: false, hrExport: false },
    });
    const scope = { tenantId: tenant.tenantId, token: gallery.token };
    const [first] = await packagedFaces();
    const person = await checkIn(tenant, gallery.token, 'consenting', true, first!.image);
    await deleteMediaObject(selfieObjectKey(scope.tenantId, scope.token, person.personId));
    // Act
    const outcome = await describeReferenceFace(scope, person.personId);
    // Assess
    expect(outcome).toBe('selfie_gone');
    expect(await listReferenceFaces(scope)).toEqual([]);
  }, 60_000);
});
