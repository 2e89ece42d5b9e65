import { type ApiKeyRecord, createApiKey } from '#lib/tenants/store/api-keys';
import { type Tenant, createTenant } from '#lib/tenants/store/tenants';
import { resetClock, setClock } from '#lib/platform/clock';
import { IdempotentReplay, idempotencyFinish, idempotencyStart } from '#lib/http/idempotency';
import { jsonResponse } from '#lib/http/json-response';
import type { ApiRequest } from '#lib/http/types';
import { uniqueSlug } from '../../support/factories';
import { useTestTable } from '../../support/test-table';
import { apiEvent, apiRequest, runAfter, runBefore, runOnError } from './request-builders';

useTestTable();

const ROUTE = 'importPersons';
const BODY = { persons: [{ name: 'Ada Lovelace', email: 'ada@example.com' }] };

let tenant: Tenant;
let apiKey: ApiKeyRecord;
beforeAll(async () => {
  tenant = await createTenant({ slug: uniqueSlug('idem'), name: 'Idempotent Studio', plan: 'creator' });
  apiKey = (await createApiKey(tenant.tenantId, 'idempotent key')).record;
});
afterEach(() => resetClock());

let keyNumber = 0;
/** An Idempotency-Key no other test uses. */
const freshKey = () => `unit-${Date.now()}-${(keyNumber += 1)}`;

interface Call {
  key?: string;
  body?: unknown;
  token?: string;
  caller?: { tenant: Tenant; apiKey?: ApiKeyRecord };
}

/** An importPersons request as it reaches idempotencyStart: caller resolved, body parsed. */
function call({ key, body = BODY, token = 'gallery1', caller = { tenant, apiKey } }: Call): ApiRequest {
  const pathParameters = { token };
  const headers: Record<string, string> = key === undefined ? {} : { 'Idempotency-Key': key };
  return apiRequest(apiEvent({ method: 'POST', path: `/groupshoot/${token}/persons`, headers, body, pathParameters }), {
    ...caller,
    pathParameters,
  });
}

/** Runs a request that claims its key and answers `statusCode`, through both middlewares. */
async function answered(request: ApiRequest, statusCode: number, members: Record<string, unknown>): Promise<void> {
  await runBefore(idempotencyStart(ROUTE), request);
  request.response = jsonResponse(statusCode, members, request.context.requestId);
  if (statusCode < 400) await runAfter(idempotencyFinish(), request);
  else await runOnError(idempotencyFinish(), request, new Error('the failure behind the answer'));
}

describe('idempotencyStart and idempotencyFinish', () => {
  it('do nothing without an Idempotency-Key', async () => {
    // Prepare
    const request = call({});

    // Act
    await runBefore(idempotencyStart(ROUTE), request);
    request.response = jsonResponse(200, { imported: 1 }, 'req-1');
    await runAfter(idempotencyFinish(), request);

    // Assess
    expect(request.internal).toEqual({});
    expect(request.response).toEqual(jsonResponse(200, { imported: 1 }, 'req-1'));
  });

  it.each([
    ['an empty key', ''],
    ['a key of 256 characters', 'k'.repeat(256)],
    ['a key with a space', 'order 42'],
    ['a key with a tab', 'order\t42'],
    ['a key with non-ASCII characters', 'bestellung-Ä'],
  ])('refuse %s with 400 invalid_idempotency_key', async (_case, key) => {
    await expect(runBefore(idempotencyStart(ROUTE), call({ key }))).rejects.toMatchObject({
      code: 'invalid_idempotency_key',
      status: 400,
    });
  });

  it.each([
    ['one character', '1'],
    ['255 characters', 'k'.repeat(255)],
    ['printable punctuation', '!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~'],
    ['a UUID', '3f2b8c0e-9a4d-4f6b-8e1a-2c7d5b9e0f13'],
  ])('let the first request with a key of %s run', async (_case, key) => {
    // Prepare: keys are per caller, so each case gets a tenant of its own.
    const caller = { tenant: await createTenant({ slug: uniqueSlug('keys'), name: 'Key Shapes', plan: 'creator' }) };
    const request = call({ key, caller });

    // Act, Assess
    await expect(runBefore(idempotencyStart(ROUTE), request)).resolves.toBeUndefined();
  });

  it('answer a repeat with the same body with the first answer', async () => {
    // Prepare
    const key = freshKey();
    await answered(call({ key }), 200, { imported: 1, persons: [{ personId: 'per_1', code: 'AB12' }] });

    // Act
    const repeat = runBefore(idempotencyStart(ROUTE), call({ key }));

    // Assess
    await expect(repeat).rejects.toBeInstanceOf(IdempotentReplay);
    await expect(repeat).rejects.toMatchObject({
      answer: { statusCode: 200, members: { imported: 1, persons: [{ personId: 'per_1', code: 'AB12' }] } },
    });
  });

  it('store the answer without ok and requestId, which the replay adds anew', async () => {
    const key = freshKey();
    await answered(call({ key }), 200, { imported: 1 });

    await expect(runBefore(idempotencyStart(ROUTE), call({ key }))).rejects.toHaveProperty('answer', {
      statusCode: 200,
      members: { imported: 1 },
    });
  });

  it('replay a refusal below 500 too', async () => {
    const key = freshKey();
    await answered(call({ key }), 400, {
      error: 'persons_required',
      message: 'A non-empty persons array is required.',
    });

    await expect(runBefore(idempotencyStart(ROUTE), call({ key }))).rejects.toHaveProperty('answer', {
      statusCode: 400,
      members: { error: 'persons_required', message: 'A non-empty persons array is required.' },
    });
  });

  it('treat the same body with its members in another order as the same request', async () => {
    const key = freshKey();
    await answered(call({ key, body: { a: 1, b: { c: 2, d: 3 } } }), 200, { imported: 0 });

    await expect(
      runBefore(idempotencyStart(ROUTE), call({ key, body: { b: { d: 3, c: 2 }, a: 1 } })),
    ).rejects.toBeInstanceOf(IdempotentReplay);
  });

  it.each([
    ['another body', { body: { persons: [{ name: 'Grace Hopper', email: 'grace@example.com' }] } }],
    ['another gallery', { token: 'gallery2' }],
  ])('refuse the key with %s: 422 idempotency_key_reused', async (_case, change) => {
    const key = freshKey();
    await answered(call({ key }), 200, { imported: 1 });

    await expect(runBefore(idempotencyStart(ROUTE), call({ key, ...change }))).rejects.toMatchObject({
      code: 'idempotency_key_reused',
      status: 422,
    });
  });

  it('answer a repeat while the first still runs with 409 idempotency_key_in_use and Retry-After', async () => {
    // Prepare: the first request claimed the key and has not answered yet.
    const key = freshKey();
    await runBefore(idempotencyStart(ROUTE), call({ key }));

    // Act, Assess
    await expect(runBefore(idempotencyStart(ROUTE), call({ key }))).rejects.toMatchObject({
      code: 'idempotency_key_in_use',
      status: 409,
      headers: { 'Retry-After': '1' },
    });
  });

  it('refuse another body while the first still runs as idempotency_key_reused', async () => {
    const key = freshKey();
    await runBefore(idempotencyStart(ROUTE), call({ key }));

    await expect(runBefore(idempotencyStart(ROUTE), call({ key, body: { persons: [] } }))).rejects.toMatchObject({
      code: 'idempotency_key_reused',
    });
  });

  it.each([500, 502, 503])('release the key after a %i answer, so that the retry runs', async (statusCode) => {
    // Prepare
    const key = freshKey();
    await answered(call({ key }), statusCode, { error: 'storage_unavailable' });
    const retry = call({ key });

    // Act
    await runBefore(idempotencyStart(ROUTE), retry);

    // Assess: the retry holds the key now, so a third request finds it in use.
    await expect(runBefore(idempotencyStart(ROUTE), call({ key }))).rejects.toMatchObject({
      code: 'idempotency_key_in_use',
    });
  });

  it('take over a claim abandoned for more than a minute', async () => {
    // Prepare: the first request's function died before it answered.
    const key = freshKey();
    const claimedAt = Date.now();
    setClock(() => claimedAt);
    await runBefore(idempotencyStart(ROUTE), call({ key }));

    // Act
    setClock(() => claimedAt + 61_000);
    const retry = runBefore(idempotencyStart(ROUTE), call({ key }));

    // Assess
    await expect(retry).resolves.toBeUndefined();
  });

  it.each([
    [
      'another tenant',
      async () => ({ tenant: await createTenant({ slug: uniqueSlug('scope'), name: 'Scope', plan: 'creator' }) }),
    ],
    [
      'another API key of the tenant',
      async () => ({ tenant, apiKey: (await createApiKey(tenant.tenantId, 'second key')).record }),
    ],
    ['a public caller of the tenant', async () => ({ tenant })],
  ])('keep the keys of %s apart', async (_case, otherCaller) => {
    const key = freshKey();
    await answered(call({ key }), 200, { imported: 1 });

    await expect(
      runBefore(idempotencyStart(ROUTE), call({ key, caller: await otherCaller() })),
    ).resolves.toBeUndefined();
  });

  it('keep the keys of different routes apart', async () => {
    const key = freshKey();
    await answered(call({ key }), 200, { imported: 1 });

    await expect(runBefore(idempotencyStart('submitCheckin'), call({ key }))).resolves.toBeUndefined();
  });

  it('leave the answer as it is when it cannot be recorded', async () => {
    // Prepare: a claimed request whose answer is not JSON.
    const key = freshKey();
    const request = call({ key });
    await runBefore(idempotencyStart(ROUTE), request);
    request.response = { statusCode: 200, headers: {}, body: 'not json' };

    // Act
    await runAfter(idempotencyFinish(), request);

    // Assess
    expect(request.response).toEqual({ statusCode: 200, headers: {}, body: 'not json' });
    await expect(runBefore(idempotencyStart(ROUTE), call({ key }))).rejects.toMatchObject({
      code: 'idempotency_key_in_use',
    });
  });
});
