import {
  ATTEMPT_SLOT_HOLD_MS,
  type HeldSlot,
  SLOT_FREES_SOON_MS,
  SUBSCRIPTION_ATTEMPTS_IN_FLIGHT,
  TENANT_ATTEMPTS_IN_FLIGHT,
  deferralDelayMs,
  freeSlotsFor,
  slotFreesSoon,
} from '#lib/webhooks/rules/delivery-capacity';

const AT = 1_000_000;
const held = (slot: number, subscriptionId: string, heldUntil = AT + 1): HeldSlot => ({
  slot,
  subscriptionId,
  heldUntil,
});
const sorted = (slots: number[]) => [...slots].sort((a, b) => a - b);

describe("a tenant's fair share of the delivery capacity", () => {
  it('offers every slot of a tenant with nothing in flight, in an order that varies', () => {
    // Act
    const first = freeSlotsFor([], 'whk_a', AT, () => 0);
    const second = freeSlotsFor([], 'whk_a', AT, () => 0.99);
    // Assess
    expect(sorted(first)).toEqual(Array.from({ length: TENANT_ATTEMPTS_IN_FLIGHT }, (_, slot) => slot));
    expect(first).not.toEqual(second);
  });

  it('offers only the slots not held, and none once the tenant has its share in flight', () => {
    // Prepare: every slot but 3 held, by subscriptions with fewer than their share each.
    const others = Array.from({ length: TENANT_ATTEMPTS_IN_FLIGHT }, (_, slot) => held(slot, `whk_${slot}`));
    // Act / Assess
    expect(
      freeSlotsFor(
        others.filter((slot) => slot.slot !== 3),
        'whk_new',
        AT,
      ),
    ).toEqual([3]);
    expect(freeSlotsFor(others, 'whk_new', AT)).toEqual([]);
  });

  it('offers none to a subscription with its own share in flight, while its siblings still get slots', () => {
    // Prepare
    const busy = Array.from({ length: SUBSCRIPTION_ATTEMPTS_IN_FLIGHT }, (_, slot) => held(slot, 'whk_hanging'));
    // Act / Assess
    expect(freeSlotsFor(busy, 'whk_hanging', AT)).toEqual([]);
    expect(freeSlotsFor(busy, 'whk_sibling', AT)).toHaveLength(
      TENANT_ATTEMPTS_IN_FLIGHT - SUBSCRIPTION_ATTEMPTS_IN_FLIGHT,
    );
  });

  it('counts a slot held past its time as free (its holder died)', () => {
    // Prepare
    const stale = Array.from({ length: TENANT_ATTEMPTS_IN_FLIGHT }, (_, slot) => held(slot, 'whk_dead', AT));
    // Act / Assess
    expect(sorted(freeSlotsFor(stale, 'whk_dead', AT))).toHaveLength(TENANT_ATTEMPTS_IN_FLIGHT);
  });

  it('lets one fast endpoint have more attempts in flight than a deliveries-per-second target needs', () => {
    // 35 ms an attempt (the bench's endpoint) at 2x the bench's 209 events/s written: Little's law.
    expect(SUBSCRIPTION_ATTEMPTS_IN_FLIGHT).toBeGreaterThanOrEqual(Math.ceil(2 * 209 * 0.035));
  });

  describe('whether a slot frees soon', () => {
    const startedAgo = (slot: number, subscriptionId: string, ms: number) =>
      held(slot, subscriptionId, AT - ms + ATTEMPT_SLOT_HOLD_MS);
    const tenantFull = (ms: number) =>
      Array.from({ length: TENANT_ATTEMPTS_IN_FLIGHT }, (_, slot) => startedAgo(slot, `whk_${slot}`, ms));

    it('says yes while some holder of the full tenant started less than a second ago', () => {
      const slots = tenantFull(SLOT_FREES_SOON_MS);
      slots[5] = startedAgo(5, 'whk_5', SLOT_FREES_SOON_MS - 1);
      expect(slotFreesSoon(slots, 'whk_new', AT)).toBe(true);
    });

    it('says no when every holder has waited a second or more (endpoints that hang)', () => {
      expect(slotFreesSoon(tenantFull(SLOT_FREES_SOON_MS), 'whk_new', AT)).toBe(false);
    });

    it("looks only at the subscription's own holders when its own share is what keeps it out", () => {
      // Prepare: the subscription's share hangs; a sibling's attempt just started.
      const slots = Array.from({ length: SUBSCRIPTION_ATTEMPTS_IN_FLIGHT }, (_, slot) =>
        startedAgo(slot, 'whk_hanging', 5_000),
      );
      slots.push(startedAgo(SUBSCRIPTION_ATTEMPTS_IN_FLIGHT, 'whk_sibling', 10));
      // Act / Assess
      expect(slotFreesSoon(slots, 'whk_hanging', AT)).toBe(false);
      expect(slotFreesSoon(slots, 'whk_sibling', AT)).toBe(true);
    });
  });

  it('defers a delivery 1 s, then twice as long each time up to 5 minutes, jittered by a quarter', () => {
    const middle = () => 0.5;
    expect([0, 1, 2, 3, 8, 9, 30].map((deferrals) => deferralDelayMs(deferrals, middle))).toEqual([
      1_000, 2_000, 4_000, 8_000, 256_000, 300_000, 300_000,
    ]);
    expect(deferralDelayMs(2, () => 0)).toBe(3_000);
    expect(deferralDelayMs(2, () => 0.999999)).toBeLessThanOrEqual(5_000);
  });
});
