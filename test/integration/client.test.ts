import { now, resetClock, setClock } from '#lib/platform/clock';
import { db } from '#lib/platform/table/client';
import { GroupShootApiError, GroupShootClient } from '#lib/client/groupshoot-client';
import { useLocalApi } from '../support/local-api';
import { type TestTenant, createTestTenant } from '../support/factories';

const api = useLocalApi();

describe('GroupShootClient', () => {
  let studio: TestTenant;
  let clockNow: number;
  const sleeps: number[] = [];
  const client = () =>
    new GroupShootClient({
      baseUrl: api.url,
      tenantSlug: studio.slug,
      apiKey: studio.apiKey,
      now: () => now(),
      // Sleeping moves the injected clock, so waiting for a rate-limit reset takes no time.
      sleep: async (ms) => {
        sleeps.push(ms);
        clockNow += ms;
      },
    });

  beforeEach(async () => {
    studio = await createTestTenant();
    clockNow = 1_800_000_000_000;
    sleeps.length = 0;
    setClock(() => clockNow);
  });
  afterEach(() => {
    resetClock();
    db.middlewareStack.remove('inject-fault');
  });

  it('imports, then pages through all persons', async () => {
    const rows = Array.from({ length: 30 }, (_, index) => ({ name: `P${index}`, employeeId: `E${index}` }));
    const result = await client().importPersons(studio.token, rows);
    const listed = [];
    for await (const person of client().allPersons(studio.token)) listed.push(person.personId);
    expect(result.imported).toBe(30);
    expect(listed).toEqual(result.persons.map((person) => person.personId));
  });

  it('waits on 429 until X-RateLimit-Reset, then gets its answer', async () => {
    const gs = client();
    for (let index = 0; index < 60; index += 1) await gs.shootingDays(studio.token);
    const answer = await gs.shootingDays(studio.token);
    expect(answer.shootingDays).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThanOrEqual(500); // START + 1 s is admitted; the clock stood at .000
    expect(sleeps[0]).toBeLessThanOrEqual(1100);
  });

  it('retries answers documented as retryable, with backoff', async () => {
    let failures = 2;
    db.middlewareStack.add(
      (next, context) => async (args) => {
        if (
          context.commandName === 'QueryCommand' &&
          failures > 0 &&
          JSON.stringify(args.input).includes(studio.token)
        ) {
          failures -= 1;
          throw Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
        }
        return next(args);
      },
      { step: 'initialize', name: 'inject-fault' },
    );
    const answer = await client().shootingDays(studio.token);
    expect(answer.galleryToken).toBe(studio.token);
    expect(sleeps).toHaveLength(2);
  });

  it('does not retry a client error, and names its code and request ID', async () => {
    const error = await client()
      .shootingDays('no-such-gallery')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GroupShootApiError);
    expect(error).toEqual(
      expect.objectContaining({ status: 404, code: 'gallery_not_found', requestId: expect.any(String) }),
    );
    expect((error as Error).message).toContain((error as GroupShootApiError).requestId);
    expect(sleeps).toEqual([]);
  });
});
