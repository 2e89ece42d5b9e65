import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
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
import { checkInWithSelfie, createFaceGallery } from '../../support/face-galleries';
import { useTestTable } from '../../support/test-table';

useTestTable({ stream: true });

/** Every item of the table holding a face descriptor, of any gallery. */
async function descriptorItems(): Promise<Record<string, unknown>[]> {
  const { Items = [] } = await db.send(
    new ScanCommand({
      TableName: tableName,
      FilterExpression: 'attribute_exists(#descriptor)',
      ExpressionAttributeNames: { '#descriptor': 'descriptor' },
      ConsistentRead: true,
    }),
  );
  return Items;
}

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
      expect((await descriptorItems()).filter((item) => String(item.pk).includes(scope.token))).toEqual([]);
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
