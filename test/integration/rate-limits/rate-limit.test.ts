import { resetClock, setClock } from '#lib/platform/clock';
import { createApiKey } from '#lib/tenants/store/api-keys';
import { useLocalApi } from '../../support/local-api';
import { type TestTenant, createTestTenant } from '../../support/factories';
import { DEFAULT_PUBLIC_LIMITS } from '#lib/galleries/rules/public-limits';

const api = useLocalApi();

/** A fixed instant, half a second into a second, so rounding to Unix seconds is visible. */
const START = 1_800_000_000_500;
let clockNow = START;

describe('rate limit: 60 requests per minute per API key', () => {
  let studio: TestTenant;

  beforeAll(async () => {
    studio = await createTestTenant();
  });
  beforeEach(() => {
    clockNow = START;
    setClock(() => clockNow);
  });
  afterAll(() => resetClock());

  /** A fresh key of the studio, so each test starts with a full bucket. */
  async function freshKeyHeaders(): Promise<Record<string, string>> {
    const { secret } = await createApiKey(studio.tenant.tenantId, 'rate test');
    return { 'X-Tenant-Slug': studio.slug, Authorization: `Bearer ${secret}` };
  }

  const daysPath = () => `/groupshoot/${studio.token}/days`;

  it('admits 60 requests and refuses the 61st with 429 and consistent headers', async () => {
    // Prepare
    const headers = await freshKeyHeaders();
    // Act
    const admitted = [];
    for (let index = 0; index < 60; index += 1) admitted.push(await api.call(daysPath(), { headers }));
    const refused = await api.call(daysPath(), { headers });
    // Assess
    admitted.forEach((answer, index) => {
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-ratelimit-limit')).toBe('60');
      expect(answer.headers.get('x-ratelimit-remaining')).toBe(String(59 - index));
    });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(
      expect.objectContaining({
        ok: false,
        error: 'rate_limit_exceeded',
        requestId: refused.headers.get('x-request-id'),
      }),
    );
    expect(refused.headers.get('x-ratelimit-limit')).toBe('60');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    // The bucket refills one request per second: the next one is admitted at START + 1 s,
    // i.e. within the Unix second after START's.
    const reset = Number(refused.headers.get('x-ratelimit-reset'));
    expect(reset).toBe(Math.ceil((START + 1000) / 1000));
    const wait = reset - Math.floor(START / 1000);
    expect(refused.body.message).toContain(`retry in ${wait} second`);
    expect(refused.headers.get('retry-after')).toBe(String(wait));
  });

  it('admits a retry at X-RateLimit-Reset and not a millisecond before the refill', async () => {
    const headers = await freshKeyHeaders();
    for (let index = 0; index < 60; index += 1) await api.call(daysPath(), { headers });
    const refused = await api.call(daysPath(), { headers });
    const reset = Number(refused.headers.get('x-ratelimit-reset'));

    clockNow = START + 999;
    const early = await api.call(daysPath(), { headers });
    clockNow = reset * 1000;
    const onTime = await api.call(daysPath(), { headers });

    expect(early.status).toBe(429);
    expect(onTime.status).toBe(200);
    expect(onTime.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('admits exactly 60 of 120 concurrent requests with one key', async () => {
    const headers = await freshKeyHeaders();
    const answers = await Promise.all(Array.from({ length: 120 }, () => api.call(daysPath(), { headers })));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(60);
    expect(statuses.filter((status) => status === 429)).toHaveLength(60);
    const remaining = answers
      .filter((a) => a.status === 200)
      .map((a) => Number(a.headers.get('x-ratelimit-remaining')));
    expect(new Set(remaining).size).toBe(60); // each admitted request saw its own place in the bucket
  });

  it('refills tokens as the clock moves: one per second, up to the limit', async () => {
    const headers = await freshKeyHeaders();
    for (let index = 0; index < 60; index += 1) await api.call(daysPath(), { headers });

    clockNow = START + 30_000;
    const afterHalfAMinute = [];
    for (let index = 0; index < 31; index += 1) afterHalfAMinute.push((await api.call(daysPath(), { headers })).status);

    clockNow = START + 30_000 + 10 * 60_000;
    const afterTenMinutes = [];
    for (let index = 0; index < 61; index += 1) afterTenMinutes.push((await api.call(daysPath(), { headers })).status);

    expect(afterHalfAMinute.filter((status) => status === 200)).toHaveLength(30);
    expect(afterHalfAMinute[30]).toBe(429);
    expect(afterTenMinutes.filter((status) => status === 200)).toHaveLength(60);
    expect(afterTenMinutes[60]).toBe(429);
  });

  it('keeps separate buckets per key', async () => {
    const first = await freshKeyHeaders();
    const second = await freshKeyHeaders();
    for (let index = 0; index < 60; index += 1) await api.call(daysPath(), { headers: first });
    expect((await api.call(daysPath(), { headers: first })).status).toBe(429);
    expect((await api.call(daysPath(), { headers: second })).status).toBe(200);
  });

  it('sends the rate-limit headers on errors after the rate-limit step too', async () => {
    const headers = await freshKeyHeaders();
    const answer = await api.call('/groupshoot/no-such-gallery/days', { headers });
    expect(answer.status).toBe(404);
    expect(answer.headers.get('x-ratelimit-remaining')).toBe('59');
  });

  it("counts public endpoints per client, not against any API key: their headers show the gallery's read budget", async () => {
    const answer = await api.call(`/group-shoot/checkin/${studio.token}`, { headers: studio.publicHeaders });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-ratelimit-limit')).toBe(String(DEFAULT_PUBLIC_LIMITS.reads.limit));
  });
});
