import { keys } from '../../support/table-keys';
import { queryPartition } from '#lib/platform/table/queries';
import {
  ATTEMPT_SLOT_HOLD_MS,
  SLOT_FREES_SOON_MS,
  SLOT_TRIES,
  SUBSCRIPTION_ATTEMPTS_IN_FLIGHT,
  TENANT_ATTEMPTS_IN_FLIGHT,
} from '#lib/webhooks/rules/delivery-capacity';
import { releaseAttemptSlot, takeAttemptSlot } from '#lib/webhooks/store/attempt-slots';
import { useTestTable } from '../../support/test-table';

useTestTable();

const AT = Date.parse('2026-11-26T12:00:00Z');
let tenants = 0;
const newTenant = () => `ten_slots${(tenants += 1)}`;

describe("a tenant's webhook attempt slots in DynamoDB", () => {
  it("gives out exactly the tenant's share to attempts that all start at once", async () => {
    // Prepare: many more attempts than slots, from enough subscriptions that only the tenant's bound holds.
    const tenantId = newTenant();
    const subscriptions = Array.from({ length: 10 }, (_, index) => `whk_${index}`);
    // Act: each tries again, as the worker does, while it is told a slot frees soon (it is: all were just taken).
    const attempt = async (subscriptionId: string) => {
      for (let tries = 1; ; tries += 1) {
        const answer = await takeAttemptSlot(tenantId, subscriptionId, AT);
        if (answer.slot || !answer.freesSoon || tries >= SLOT_TRIES) return answer;
      }
    };
    const taken = await Promise.all(Array.from({ length: 40 }, (_, index) => attempt(subscriptions[index % 10]!)));
    // Assess
    const granted = taken.flatMap((answer) => (answer.slot ? [answer.slot] : []));
    expect(granted).toHaveLength(TENANT_ATTEMPTS_IN_FLIGHT);
    expect(new Set(granted.map((slot) => slot.slot)).size).toBe(TENANT_ATTEMPTS_IN_FLIGHT);
    expect((await takeAttemptSlot(newTenant(), 'whk_0', AT)).slot).toBeDefined();
  });

  it('keeps one subscription to its share when its attempts come one after another', async () => {
    // Prepare
    const tenantId = newTenant();
    for (let taken = 0; taken < SUBSCRIPTION_ATTEMPTS_IN_FLIGHT; taken += 1)
      expect((await takeAttemptSlot(tenantId, 'whk_hanging', AT)).slot).toBeDefined();
    // Act / Assess
    expect((await takeAttemptSlot(tenantId, 'whk_hanging', AT)).slot).toBeUndefined();
    expect((await takeAttemptSlot(tenantId, 'whk_sibling', AT)).slot).toBeDefined();
  });

  it('frees a slot when it is given back, and one held past its time for the next attempt', async () => {
    // Prepare: the tenant's share in flight.
    const tenantId = newTenant();
    const taken = [];
    for (let index = 0; index < TENANT_ATTEMPTS_IN_FLIGHT; index += 1)
      taken.push((await takeAttemptSlot(tenantId, `whk_${index}`, AT)).slot!);
    expect((await takeAttemptSlot(tenantId, 'whk_next', AT)).slot).toBeUndefined();
    // Act / Assess: given back.
    await releaseAttemptSlot(taken[0]!);
    const next = (await takeAttemptSlot(tenantId, 'whk_next', AT)).slot;
    expect(next?.slot).toBe(taken[0]!.slot);
    // Act / Assess: held past its time (a function that died), taken over; the late holder's release leaves it be.
    const late = (await takeAttemptSlot(tenantId, 'whk_late', AT + ATTEMPT_SLOT_HOLD_MS)).slot;
    expect(late).toBeDefined();
    const overtaken = taken.find((slot) => slot.slot === late!.slot)!;
    await releaseAttemptSlot(overtaken);
    const items = await queryPartition(keys.webhookAttemptSlotsOfTenant(tenantId));
    expect(items.find((item) => item.slot === late!.slot)?.subscriptionId).toBe('whk_late');
  });

  it('says a slot frees soon while some holder in the way just started, and not once they all have waited a while', async () => {
    // Prepare: the tenant's share in flight, taken at AT.
    const tenantId = newTenant();
    for (let index = 0; index < TENANT_ATTEMPTS_IN_FLIGHT; index += 1)
      expect((await takeAttemptSlot(tenantId, `whk_${index}`, AT)).slot).toBeDefined();
    // Act / Assess: a healthy endpoint's attempts end in milliseconds; hanging ones do not.
    expect(await takeAttemptSlot(tenantId, 'whk_next', AT + 10)).toEqual({ freesSoon: true });
    expect(await takeAttemptSlot(tenantId, 'whk_next', AT + SLOT_FREES_SOON_MS)).toEqual({ freesSoon: false });
  });
});
