import { tableName } from '#lib/platform/table/client';
import { transactIfConditionsHold } from '#lib/platform/table/conditional-writes';
import type { FaceCandidate } from '#lib/faces/rules/second-opinion';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import type { Key, ShootPhoto } from '#lib/photos/sorting/store/shoot-photos';
import { indexEntriesOf, indexEntryChanges } from '#lib/photos/sorting/store/shoot-index';

/**
 * The face candidates a shoot photo keeps for its review (IDs and distances of other persons,
 * personal data of theirs: docs/personal-data.md), changed in place when a person's face must
 * be forgotten. The rest of the photo's state is placement's (shoot-photos.ts).
 */

/**
 * Replaces a photo's candidates with `remaining` (none: the attribute goes), on condition that
 * they are still `previous`, as read: a placement that replaced them meanwhile is not
 * overwritten. The persons' shoot index entries (`CAND#`, shoot-index.ts) change in the same
 * transaction: at most three Deletes. False when the condition failed (read the photo again).
 */
export async function replaceFaceCandidates(
  scope: GalleryScope,
  photo: Key & Pick<ShootPhoto, 'candidates'>,
  previous: readonly FaceCandidate[],
  remaining: readonly FaceCandidate[],
): Promise<boolean> {
  return transactIfConditionsHold([
    {
      Update: {
        TableName: tableName,
        Key: { pk: photo.pk, sk: photo.sk },
        UpdateExpression: remaining.length > 0 ? 'SET candidates = :remaining' : 'REMOVE candidates',
        ConditionExpression: 'candidates = :previous',
        ExpressionAttributeValues: {
          ':previous': previous,
          ...(remaining.length > 0 ? { ':remaining': remaining } : {}),
        },
      },
    },
    ...indexEntryChanges(
      scope,
      photo.sk,
      indexEntriesOf({ kind: 'photo', candidates: previous }),
      indexEntriesOf({ kind: 'photo', candidates: remaining }),
    ),
  ]);
}
