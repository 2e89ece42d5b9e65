import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { keys } from './table-keys';
import { bookedOnCounters } from '#lib/galleries/rules/spot-counters';
import { readSpotCounters } from '#lib/galleries/store/day-bookings';

/**
 * A day's spots as the table holds them, read strongly consistent: `booked` summed over its
 * spot counters (lib/galleries/rules/spot-counters.ts), `pendingPayments` from the day's item.
 * Undefined values when the day is gone.
 */
export async function daySpots(
  scope: { tenantId: string; token: string },
  dayId: string,
): Promise<{ booked: number | undefined; pendingPayments: number | undefined }> {
  const [counters, { Item }] = await Promise.all([
    readSpotCounters(scope, dayId),
    db.send(
      new GetCommand({
        TableName: tableName,
        Key: keys.shootingDay(scope.tenantId, scope.token, dayId),
        ConsistentRead: true,
      }),
    ),
  ]);
  return {
    booked: counters ? bookedOnCounters(counters) : undefined,
    pendingPayments: Item?.pendingPayments as number | undefined,
  };
}
