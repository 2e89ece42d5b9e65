import { type ApiKeyRecord, createApiKey } from '#lib/tenants/store/api-keys';
import { createTenant } from '#lib/tenants/store/tenants';
import { resetClock, setClock } from '#lib/platform/clock';
import { rateLimit } from '#lib/http/rate-limit';
import type { ApiRequest } from '#lib/http/types';
import { uniqueSlug } from '../../support/factories';
import { useTestTable } from '../../support/test-table';
import { apiRequest, runBefore } from './request-builders';

useTestTable();

/** A whole second, so that the waits come out in whole seconds. */
const START = 1_800_000_000_000;

let tenantId: string;
beforeAll(async () => {
  ({ tenantId } = await createTenant({ slug: uniqueSlug('limits'), name: 'Limited Studio', plan: 'creator' }));
});

let clock: number;
beforeEach(() => {
  clock = START;
  setClock(() => clock);
});
afterEach(() => resetClock());

/** A key of its own for each test, so that counters never carry over. */
async function freshKey(): Promise<ApiKeyRecord> {
  return (await createApiKey(tenantId, 'rate-limited key')).record;
}

const requestWith = (apiKey: ApiKeyRecord): ApiRequest => apiRequest(undefined, { apiKey });

/** Sends `count` requests of the key through the limit, one after the other; the last request is returned. */
async function spend(apiKey: ApiKeyRecord, count: number, limit = rateLimit()): Promise<ApiRequest> {
  let request = requestWith(apiKey);
  for (let index = 0; index < count; index += 1) {
    request = requestWith(apiKey);
    await runBefore(limit, request);
  }
  return request;
}

describe('rateLimit', () => {
  it('admits a request and sets the X-RateLimit headers on context.responseHeaders', async () => {
    // Prepare
    const request = requestWith(await freshKey());

    // Act
    await runBefore(rateLimit(), request);

    // Assess
    expect(request.context.responseHeaders).toEqual({
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '59',
      'X-RateLimit-Reset': String(START / 1000 + 1),
    });
  });

  it('counts Remaining down to 0 over a burst of 60', async () => {
    const last = await spend(await freshKey(), 60);

    expect(last.context.responseHeaders).toEqual(expect.objectContaining({ 'X-RateLimit-Remaining': '0' }));
  });

  it('gives the 61st request within the minute 429 rate_limit_exceeded with the wait and Retry-After', async () => {
    // Prepare
    const apiKey = await freshKey();
    await spend(apiKey, 60);
    const request = requestWith(apiKey);

    // Act, Assess
    await expect(runBefore(rateLimit(), request)).rejects.toMatchObject({
      code: 'rate_limit_exceeded',
      status: 429,
      message: 'Rate limit of 60 requests per minute exceeded; retry in 1 second.',
      headers: { 'Retry-After': '1' },
    });
    expect(request.context.responseHeaders).toEqual({
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(START / 1000 + 1),
    });
  });

  it('admits the key again once the wait has passed', async () => {
    // Prepare
    const apiKey = await freshKey();
    await spend(apiKey, 60);
    await expect(runBefore(rateLimit(), requestWith(apiKey))).rejects.toMatchObject({ code: 'rate_limit_exceeded' });

    // Act
    clock += 1000;
    const request = requestWith(apiKey);
    await runBefore(rateLimit(), request);

    // Assess
    expect(request.context.responseHeaders['X-RateLimit-Remaining']).toBe('0');
  });

  it('gives a whole burst again after a quiet minute', async () => {
    const apiKey = await freshKey();
    await spend(apiKey, 60);

    clock += 60_000;
    const request = await spend(apiKey, 1);

    expect(request.context.responseHeaders['X-RateLimit-Remaining']).toBe('59');
  });

  it('counts each key on its own', async () => {
    await spend(await freshKey(), 60);
    const request = requestWith(await freshKey());

    await runBefore(rateLimit(), request);

    expect(request.context.responseHeaders['X-RateLimit-Remaining']).toBe('59');
  });

  it('says the wait in seconds, plural, for a longer wait', async () => {
    // Prepare: two requests per ten seconds, so a refusal waits five seconds.
    const policy = { limit: 2, windowMs: 10_000 };
    const apiKey = await freshKey();
    await spend(apiKey, 2, rateLimit(policy));

    // Act, Assess
    await expect(runBefore(rateLimit(policy), requestWith(apiKey))).rejects.toMatchObject({
      message: expect.stringMatching(/; retry in 5 seconds\.$/),
      headers: { 'Retry-After': '5' },
    });
  });

  it('keeps the headers collected before it', async () => {
    const request = apiRequest(undefined, { apiKey: await freshKey(), responseHeaders: { 'X-Other': 'kept' } });

    await runBefore(rateLimit(), request);

    expect(request.context.responseHeaders).toEqual(expect.objectContaining({ 'X-Other': 'kept', 'X-RateLimit-Limit': '60' }));
  });

  it('refuses to run without apiKeyAuth before it', async () => {
    await expect(runBefore(rateLimit(), apiRequest())).rejects.toThrow('rateLimit needs apiKeyAuth before it');
  });
});
