import {
  type HeldSlot,
  SUBSCRIPTION_ATTEMPTS_IN_FLIGHT,
  TENANT_ATTEMPTS_IN_FLIGHT,
  deferralDelayMs,
  freeSlotsFor,
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

  it('defers a delivery 1 s, then twice as long each time up to 5 minutes, jittered by a quarter', () => {
    const middle = () => 0.5;
    expect([0, 1, 2, 3, 8, 9, 30].map((deferrals) => deferralDelayMs(deferrals, middle))).toEqual([
      1_000, 2_000, 4_000, 8_000, 256_000, 300_000, 300_000,
    ]);
    expect(deferralDelayMs(2, () => 0)).toBe(3_000);
    expect(deferralDelayMs(2, () => 0.999999)).toBeLessThanOrEqual(5_000);
  });
});
