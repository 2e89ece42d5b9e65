import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#lib/platform/table/client';
import { addShootingDay } from '#lib/galleries/store/galleries';
import { type SpotTaking, readSpotCounters, withSpotTaken } from '#lib/galleries/store/day-bookings';
import { createTestTenant } from '../../support/factories';
import { commandsSentDuring } from '../../support/sent-commands';
import { useTestTable } from '../../support/test-table';

useTestTable();

/** What DynamoDB answers a transaction that met another on one of its items. */
function transactionConflict(): Error {
  return Object.assign(
    new Error('Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict]'),
    {
      name: 'TransactionCanceledException',
      CancellationReasons: [{ Code: 'TransactionConflict' }],
    },
  );
}

const counterKeyOf = (spot: SpotTaking) => String(spot.items[0]?.Update?.Key?.sk);

/**
 * Takes a spot of a new day of `maxPersons` with the counters a gallery read showed, the first
 * `conflicts` transactions cancelled as if they met another: the counters each try went to, and
 * the commands sent to DynamoDB meanwhile, and the spots the day's counters then hold.
 */
async function takeSpotThroughConflicts(
  maxPersons: number,
  conflicts: number,
): Promise<{ tried: string[]; sent: string[]; booked: number }> {
  const studio = await createTestTenant();
  const day = await addShootingDay(studio.tenant.tenantId, studio.token, {
    date: '2031-03-03',
    label: 'Busy',
    startTime: '09:00',
    endTime: '17:00',
    maxPersons,
  });
  const scope = { tenantId: studio.tenant.tenantId, token: studio.token };
  const counters = await readSpotCounters(scope, day.id);
  const tried: string[] = [];
  const sent = await commandsSentDuring(() =>
    withSpotTaken(scope, day.id, counters, {}, async (spot) => {
      tried.push(counterKeyOf(spot));
      if (tried.length <= conflicts) throw transactionConflict();
      await db.send(new TransactWriteCommand({ TransactItems: spot.items }));
    }),
  );
  const booked = (await readSpotCounters(scope, day.id))!.reduce((sum, counter) => sum + counter.booked, 0);
  return { tried, sent, booked };
}

describe('a spot whose counter another transaction holds', () => {
  it('is taken at once from another counter with room, without reading the counters again', async () => {
    // Act
    const { tried, sent, booked } = await takeSpotThroughConflicts(40, 1);
    // Assess
    expect(tried).toHaveLength(2);
    expect(tried[1]).not.toBe(tried[0]);
    expect(sent).toEqual(['TransactWriteItemsCommand']);
    expect(booked).toBe(1);
  });

  it('where no other counter has room, is tried on the same counter after reading the counters again', async () => {
    // Act
    const { tried, sent } = await takeSpotThroughConflicts(1, 1);
    // Assess
    expect(tried).toHaveLength(2);
    expect(tried[1]).toBe(tried[0]);
    expect(sent).toEqual(['QueryCommand', 'TransactWriteItemsCommand']);
  });
});

describe('a spot whose transaction keeps meeting others', () => {
  it('moves at once at most three times, then waits the conflict out on one counter after reading the counters again', async () => {
    // Act
    const { tried, sent } = await takeSpotThroughConflicts(80, 4);
    // Assess
    expect(new Set(tried.slice(0, 4)).size).toBe(4);
    expect(sent).toEqual(['QueryCommand', 'TransactWriteItemsCommand']);
  });
});
