import { createApiKey } from '#lib/tenants/store/api-keys';
import { type Tenant, createTenant } from '#lib/tenants/store/tenants';
import { resetClock, setClock } from '#lib/platform/clock';
import { apiKeyAuth } from '#lib/http/api-key-auth';
import { rateLimit } from '#lib/http/rate-limit';
import type { RateLimitPolicy } from '#lib/rate-limits/rules/rate-limit';
import type { ApiRequest } from '#lib/http/types';
import { uniqueSlug } from '../../support/factories';
import { commandsSentDuring } from '../../support/sent-commands';
import { useTestTable } from '../../support/test-table';
import { apiEvent, apiRequest, runBefore } from './request-builders';

useTestTable();

/** A whole second, so that the waits come out in whole seconds. */
const START = 1_800_000_000_000;

let tenant: Tenant;
beforeAll(async () => {
  tenant = await createTenant({ slug: uniqueSlug('limits'), name: 'Limited Studio', plan: 'creator' });
});

let clock: number;
beforeEach(() => {
  clock = START;
  setClock(() => clock);
});
afterEach(() => resetClock());

/** A key of its own for each test, so that counters never carry over: its secret. */
async function freshKey(): Promise<string> {
  return (await createApiKey(tenant.tenantId, 'rate-limited key')).secret;
}

const requestWith = (secret: string, responseHeaders: Record<string, string> = {}): ApiRequest =>
  apiRequest(apiEvent({ headers: { 'x-api-key': secret } }), { tenant, responseHeaders });

/**
 * The key check, whose write takes the request from the key's counter (under `policy`), then
 * the limit, which answers that verdict.
 */
async function throughLimit(request: ApiRequest, policy?: RateLimitPolicy): Promise<void> {
  await runBefore(apiKeyAuth(policy), request);
  await runBefore(rateLimit(), request);
}

/** Sends `count` requests of the key through the limit, one after the other; the last request is returned. */
async function spend(secret: string, count: number, policy?: RateLimitPolicy): Promise<ApiRequest> {
  let request = requestWith(secret);
  for (let index = 0; index < count; index += 1) {
    request = requestWith(secret);
    await throughLimit(request, policy);
  }
  return request;
}

describe('rateLimit', () => {
  it('admits a request and sets the X-RateLimit headers on context.responseHeaders', async () => {
    // Prepare
    const request = requestWith(await freshKey());

    // Act
    await throughLimit(request);

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
    await expect(throughLimit(request)).rejects.toMatchObject({
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
    await expect(throughLimit(requestWith(apiKey))).rejects.toMatchObject({ code: 'rate_limit_exceeded' });

    // Act
    clock += 1000;
    const request = requestWith(apiKey);
    await throughLimit(request);

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

    await throughLimit(request);

    expect(request.context.responseHeaders['X-RateLimit-Remaining']).toBe('59');
  });

  it('says the wait in seconds, plural, for a longer wait', async () => {
    // Prepare: two requests per ten seconds, so a refusal waits five seconds.
    const policy = { limit: 2, windowMs: 10_000 };
    const apiKey = await freshKey();
    await spend(apiKey, 2, policy);

    // Act, Assess
    await expect(throughLimit(requestWith(apiKey), policy)).rejects.toMatchObject({
      message: expect.stringMatching(/; retry in 5 seconds\.$/),
      headers: { 'Retry-After': '5' },
    });
  });

  it('keeps the headers collected before it', async () => {
    const request = requestWith(await freshKey(), { 'X-Other': 'kept' });

    await throughLimit(request);

    expect(request.context.responseHeaders).toEqual(
      expect.objectContaining({ 'X-Other': 'kept', 'X-RateLimit-Limit': '60' }),
    );
  });

  it('keeps the counter on the key: a refused request is answered without a write', async () => {
    // Prepare
    const apiKey = await freshKey();
    await spend(apiKey, 60);
    await expect(throughLimit(requestWith(apiKey))).rejects.toMatchObject({ code: 'rate_limit_exceeded' });

    // Act
    const sent = await commandsSentDuring(() =>
      expect(throughLimit(requestWith(apiKey))).rejects.toMatchObject({ code: 'rate_limit_exceeded' }),
    );

    // Assess: this process knows the key is exhausted, so it only reads the key to check it.
    expect(sent).toEqual(['GetItemCommand']);
  });

  it('refuses to run without apiKeyAuth before it', async () => {
    await expect(runBefore(rateLimit(), apiRequest())).rejects.toThrow('rateLimit needs apiKeyAuth before it');
  });
});
