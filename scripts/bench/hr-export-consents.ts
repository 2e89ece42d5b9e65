import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { keys } from '#lib/platform/table/keys';

/** What a check-in with the HR consent ticked stores, written straight for the bench's imported persons (an import never consents). */
export async function consentToHrExport(scope: { tenantId: string; token: string }, personId: string): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.person(scope.tenantId, scope.token, personId),
      UpdateExpression: 'SET consents.hrExportConsent = :true',
      ExpressionAttributeValues: { ':true': true },
    }),
  );
}
