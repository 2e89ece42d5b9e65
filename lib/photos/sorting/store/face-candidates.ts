import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { withStoreRetries } from '#lib/platform/table/retry';
import { isConditionFailure } from '#lib/platform/table/store-errors';
import type { FaceCandidate } from '#lib/faces/rules/second-opinion';
import type { Key, ShootPhoto } from '#lib/photos/sorting/store/shoot-photos';

/**
 * The face candidates a shoot photo keeps for its review (IDs and distances of other persons,
 * personal data of theirs: docs/personal-data.md), changed in place when a person's face must
 * be forgotten. The rest of the photo's state is placement's (shoot-photos.ts).
 */

/**
 * Replaces a photo's candidates with `remaining` (none: the attribute goes), on condition that
 * they are still `previous`, as read: a placement that replaced them meanwhile is not
 * overwritten. False when the condition failed (read the photo again).
 */
export async function replaceFaceCandidates(
  photo: Key & Pick<ShootPhoto, 'candidates'>,
  previous: readonly FaceCandidate[],
  remaining: readonly FaceCandidate[],
): Promise<boolean> {
  try {
    await withStoreRetries(() =>
      db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { pk: photo.pk, sk: photo.sk },
          UpdateExpression: remaining.length > 0 ? 'SET candidates = :remaining' : 'REMOVE candidates',
          ConditionExpression: 'candidates = :previous',
          ExpressionAttributeValues: {
            ':previous': previous,
            ...(remaining.length > 0 ? { ':remaining': remaining } : {}),
          },
        }),
      ),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
