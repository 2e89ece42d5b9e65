import { randomUUID } from 'node:crypto';
import { db } from '#lib/platform/table/client';
import { consumeRateLimit, knownRemaining } from '#lib/rate-limits/store/rate-limit-counters';
import type { RateLimitPolicy } from '#lib/rate-limits/rules/rate-limit';
import { useTestTable } from '../../support/test-table';

/**
 * The TAT a process remembers per counter decides whether a check-in takes its client's counter
 * and its tenant's share at once (lib/http/rate-limit.ts). Concurrent takes of one counter may
 * be answered out of order; the hint must still show the counter's newest state.
 */
useTestTable();

const policy: RateLimitPolicy = { limit: 5, windowMs: 60_000 };
const NOW = Date.parse('2027-05-01T08:00:00Z');

/** Holds the answer of the next write until `release` is called, once DynamoDB has applied it. */
function holdNextWriteAnswer() {
  let signalApplied!: () => void;
  let release!: () => void;
  const applied = new Promise<void>((resolve) => (signalApplied = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  let holding = true;
  const name = `holdAnswer-${randomUUID()}`;
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (holding && context.commandName === 'UpdateItemCommand') {
        holding = false;
        signalApplied();
        await released;
      }
      return result;
    },
    { step: 'initialize', name },
  );
  return { applied, release: () => (release(), db.middlewareStack.remove(name)) };
}

describe('rate-limit counter hints', () => {
  it('remembers the later of two takes answered out of order', async () => {
    // Prepare: the first take's answer is held until the second take has been answered.
    const keyId = `hint-${randomUUID()}`;
    const hold = holdNextWriteAnswer();

    // Act
    const first = consumeRateLimit(keyId, policy, NOW);
    await hold.applied;
    const second = await consumeRateLimit(keyId, policy, NOW);
    hold.release();
    const firstVerdict = await first;

    // Assess: both admitted, in that order; the hint shows what the counter has left.
    expect([firstVerdict.remaining, second.remaining]).toEqual([4, 3]);
    expect(knownRemaining(keyId, policy, NOW)).toBe(3);
  });

  it("keeps a busy counter's hint while more than 10,000 other counters are taken", async () => {
    // Act: 4 of the busy counter's 5 taken among 11,000 other counters, the last after 9,000.
    const busy = `busy-${randomUUID()}`;
    for (let batch = 0; batch < 110; batch += 1) {
      if (batch % 30 === 0) await consumeRateLimit(busy, policy, NOW);
      await Promise.all(
        Array.from({ length: 100 }, (_, index) => consumeRateLimit(`other-${busy}-${batch}-${index}`, policy, NOW)),
      );
    }
    // Assess: the process still knows the busy counter has one request left.
    expect(knownRemaining(busy, policy, NOW)).toBe(1);
  }, 120_000);
});
