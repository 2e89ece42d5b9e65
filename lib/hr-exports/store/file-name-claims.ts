import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { conditionalWrite } from '#lib/platform/table/conditional-writes';
import { putItems } from '#lib/platform/table/batches';
import { TTL_ATTRIBUTE } from '#lib/platform/table/table-definition';
import { now } from '#lib/platform/clock';
import { hrExportKeys } from '#lib/hr-exports/store/keys';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import type { FileNameLedger } from '#lib/hr-exports/rules/portrait-file-names';

/**
 * The file names of one build of an export, kept in the table (hrExportKeys.hrExportFileName) so
 * that the build's memory stays flat however many portraits it names: one item per name given,
 * claimed with a conditional Put, and one per name an HR employee ID wants. Each build has a
 * partition of its own (a retried build names afresh); the items expire by TTL a day later.
 */

/** A build lasts at most 15 minutes; its names are of no use after it. */
const NAMES_KEPT_SECONDS = 86_400;

/** A new build's ledger of file names, in its own partition. */
export function tableFileNameLedger(scope: GalleryScope): FileNameLedger & {
  /** Records names HR's employee IDs want (compared), so that no declared ID takes one. */
  reserveForHr(comparedNames: readonly string[]): Promise<void>;
} {
  const buildId = randomUUID();
  const expiresAt = Math.floor(now() / 1000) + NAMES_KEPT_SECONDS;
  return {
    take: (comparedName) => {
      const claimId = randomUUID();
      return conditionalWrite(
        () =>
          db.send(
            new PutCommand({
              TableName: tableName,
              Item: {
                ...hrExportKeys.hrExportFileName(scope.tenantId, scope.token, buildId, comparedName),
                claimId,
                [TTL_ATTRIBUTE]: expiresAt,
              },
              ConditionExpression: 'attribute_not_exists(pk)',
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            }),
          ),
        // This very claim, sent again after its answer was lost.
        (item) => item?.claimId === claimId,
      );
    },
    isReservedForHr: async (comparedName) => {
      const { Item } = await db.send(
        new GetCommand({
          TableName: tableName,
          Key: hrExportKeys.hrExportReservedName(scope.tenantId, scope.token, buildId, comparedName),
          // Put moments ago, before the first name was given.
          ConsistentRead: true,
        }),
      );
      return Item !== undefined;
    },
    reserveForHr: (comparedNames) =>
      putItems(
        [...new Set(comparedNames)].map((comparedName) => ({
          ...hrExportKeys.hrExportReservedName(scope.tenantId, scope.token, buildId, comparedName),
          [TTL_ATTRIBUTE]: expiresAt,
        })),
      ),
  };
}
