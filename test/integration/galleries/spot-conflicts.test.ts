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
  return Object.assign(new Error('Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict]'), {
    name: 'TransactionCanceledException',
    CancellationReasons: [{ Code: 'TransactionConflict' }],
  });
}

const counterKeyOf = (spot: SpotTaking) => String(spot.items[0]?.Update?.Key?.sk);

describe('a spot whose counter another transaction holds', () => {
  it('is taken at once from another counter with room, without reading the counters again', async () => {
    // Prepare
    const studio = await createTestTenant();
    const day = await addShootingDay(studio.tenant.tenantId, studio.token, { date: '2031-03-03', label: 'Busy', startTime: '09:00', endTime: '17:00', maxPersons: 40 });
    const scope = { tenantId: studio.tenant.tenantId, token: studio.token };
    const counters = await readSpotCounters(scope, day.id);
    const tried: string[] = [];
    // Act
    const sent = await commandsSentDuring(() =>
      withSpotTaken(scope, day.id, counters, {}, async (spot) => {
        tried.push(counterKeyOf(spot));
        if (tried.length === 1) throw transactionConflict();
        await db.send(new TransactWriteCommand({ TransactItems: spot.items }));
      }),
    );
    // Assess
    expect(tried).toHaveLength(2);
    expect(tried[1]).not.toBe(tried[0]);
    expect(sent).toEqual(['TransactWriteItemsCommand']);
    expect((await readSpotCounters(scope, day.id))!.reduce((sum, counter) => sum + counter.booked, 0)).toBe(1);
  });

  it('where no other counter has room, is tried on the same counter after reading the counters again', async () => {
    // Prepare
    const studio = await createTestTenant();
    const day = await addShootingDay(studio.tenant.tenantId, studio.token, { date: '2031-03-04', label: 'Small', startTime: '09:00', endTime: '17:00', maxPersons: 1 });
    const scope = { tenantId: studio.tenant.tenantId, token: studio.token };
    const counters = await readSpotCounters(scope, day.id);
    const tried: string[] = [];
    // Act
    const sent = await commandsSentDuring(() =>
      withSpotTaken(scope, day.id, counters, {}, async (spot) => {
        tried.push(counterKeyOf(spot));
        if (tried.length === 1) throw transactionConflict();
        await db.send(new TransactWriteCommand({ TransactItems: spot.items }));
      }),
    );
    // Assess
    expect(tried).toHaveLength(2);
    expect(tried[1]).toBe(tried[0]);
    expect(sent).toEqual(['QueryCommand', 'TransactWriteItemsCommand']);
  });
});

describe('a spot whose transaction keeps meeting others', () => {
  it('moves at once at most three times, then waits the conflict out on one counter after reading the counters again', async () => {
    // Prepare
    const studio = await createTestTenant();
    const day = await addShootingDay(studio.tenant.tenantId, studio.token, { date: '2031-03-05', label: 'Crowded', startTime: '09:00', endTime: '17:00', maxPersons: 80 });
    const scope = { tenantId: studio.tenant.tenantId, token: studio.token };
    const counters = await readSpotCounters(scope, day.id);
    const tried: string[] = [];
    // Act
    const sent = await commandsSentDuring(() =>
      withSpotTaken(scope, day.id, counters, {}, async (spot) => {
        tried.push(counterKeyOf(spot));
        if (tried.length <= 4) throw transactionConflict();
        await db.send(new TransactWriteCommand({ TransactItems: spot.items }));
      }),
    );
    // Assess
    expect(new Set(tried.slice(0, 4)).size).toBe(4);
    expect(sent).toEqual(['QueryCommand', 'TransactWriteItemsCommand']);
  });
});
