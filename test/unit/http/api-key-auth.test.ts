import { type ApiKeyRecord, createApiKey, setApiKeyStatus } from '#lib/tenants/store/api-keys';
import { db } from '#lib/platform/table/client';
import { type Tenant, createTenant } from '#lib/tenants/store/tenants';
import { apiKeyAuth, prefetchApiKey, presentedApiKey } from '#lib/http/api-key-auth';
import type { ApiRequest } from '#lib/http/types';
import { uniqueSlug } from '../../support/factories';
import { useTestTable } from '../../support/test-table';
import { apiEvent, apiRequest, runBefore } from './request-builders';

useTestTable();

const WELL_FORMED_UNKNOWN_KEY = `gsk_${'Z'.repeat(40)}`;

/** A request of `tenant` presenting these headers, as it reaches the key check. */
function requestOf(tenant: Tenant | undefined, headers: Record<string, string>): ApiRequest {
  return apiRequest(apiEvent({ headers }), { tenant });
}

/** The commands sent to DynamoDB while `act` runs, counted at the client's first step. */
async function commandsSentDuring(act: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  db.middlewareStack.add(
    (next, context) => async (args) => {
      sent.push(String(context.commandName));
      return next(args);
    },
    { step: 'initialize', name: 'countCommands' },
  );
  try {
    await act();
  } finally {
    db.middlewareStack.remove('countCommands');
  }
  return sent;
}

describe('presentedApiKey', () => {
  it.each([
    ['Authorization: Bearer', { Authorization: 'Bearer gsk_abc' }, 'gsk_abc'],
    ['a lowercase scheme', { authorization: 'bearer gsk_abc' }, 'gsk_abc'],
    ['spaces around the key', { authorization: 'Bearer   gsk_abc  ' }, 'gsk_abc'],
    ['X-Api-Key', { 'X-Api-Key': 'gsk_abc' }, 'gsk_abc'],
    ['x-api-key with spaces around it', { 'x-api-key': '  gsk_abc ' }, 'gsk_abc'],
    ['both, Bearer first', { authorization: 'Bearer gsk_bearer', 'x-api-key': 'gsk_header' }, 'gsk_bearer'],
    ['another scheme and X-Api-Key', { authorization: 'Basic dXNlcjpwYXNz', 'x-api-key': 'gsk_header' }, 'gsk_header'],
    ['an empty Bearer and X-Api-Key', { authorization: 'Bearer ', 'x-api-key': 'gsk_header' }, 'gsk_header'],
  ])('takes the key of %s', (_case, headers, key) => {
    expect(presentedApiKey(headers)).toBe(key);
  });

  it.each([
    ['no headers', undefined],
    ['no key header', { 'x-tenant-slug': 'demo' }],
    ['another scheme only', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['a bare token without scheme', { authorization: 'gsk_abc' }],
    ['a Bearer of two words', { authorization: 'Bearer gsk_abc extra' }],
    ['an empty Bearer', { authorization: 'Bearer' }],
    ['a blank X-Api-Key', { 'x-api-key': '   ' }],
  ])('finds no key in %s', (_case, headers) => {
    expect(presentedApiKey(headers)).toBeUndefined();
  });
});

describe('API key checks', () => {
  let tenant: Tenant;
  let otherTenant: Tenant;
  let key: { record: ApiKeyRecord; secret: string };
  beforeAll(async () => {
    tenant = await createTenant({ slug: uniqueSlug('keys'), name: 'Key Studio', plan: 'creator' });
    otherTenant = await createTenant({ slug: uniqueSlug('other'), name: 'Other Studio', plan: 'creator' });
    key = await createApiKey(tenant.tenantId, 'integration');
  });

  describe('apiKeyAuth', () => {
    it.each([
      ['Authorization: Bearer', (secret: string) => ({ authorization: `Bearer ${secret}` })],
      ['X-Api-Key', (secret: string) => ({ 'X-Api-Key': secret })],
    ])('sets context.apiKey for an active key of the tenant in %s', async (_header, headers) => {
      // Prepare
      const request = requestOf(tenant, headers(key.secret));

      // Act
      await runBefore(apiKeyAuth(), request);

      // Assess
      expect(request.context.apiKey).toEqual(key.record);
    });

    it('gives 401 api_key_required without a key', async () => {
      const request = requestOf(tenant, { authorization: 'Basic dXNlcjpwYXNz' });

      await expect(runBefore(apiKeyAuth(), request)).rejects.toMatchObject({ code: 'api_key_required', status: 401 });
    });

    it('gives 401 invalid_api_key to a well-formed key that does not exist', async () => {
      const request = requestOf(tenant, { 'x-api-key': WELL_FORMED_UNKNOWN_KEY });

      await expect(runBefore(apiKeyAuth(), request)).rejects.toMatchObject({ code: 'invalid_api_key', status: 401 });
      expect(request.context.apiKey).toBeUndefined();
    });

    it('gives 401 invalid_api_key to a value that is not shaped like a key, without looking it up', async () => {
      const request = requestOf(tenant, { 'x-api-key': 'password123' });

      const sent = await commandsSentDuring(() =>
        expect(runBefore(apiKeyAuth(), request)).rejects.toMatchObject({ code: 'invalid_api_key' }),
      );

      expect(sent).toEqual([]);
    });

    it("gives 401 invalid_api_key to another tenant's active key", async () => {
      const request = requestOf(otherTenant, { authorization: `Bearer ${key.secret}` });

      await expect(runBefore(apiKeyAuth(), request)).rejects.toMatchObject({ code: 'invalid_api_key' });
    });

    it('gives 401 invalid_api_key when no tenant was resolved', async () => {
      const request = requestOf(undefined, { authorization: `Bearer ${key.secret}` });

      await expect(runBefore(apiKeyAuth(), request)).rejects.toMatchObject({ code: 'invalid_api_key' });
    });

    it.each(['disabled', 'revoked'] as const)('gives 401 invalid_api_key to a %s key', async (status) => {
      // Prepare
      const retired = await createApiKey(tenant.tenantId, `${status} key`);
      await setApiKeyStatus(tenant.tenantId, retired.record.keyId, status);
      const request = requestOf(tenant, { authorization: `Bearer ${retired.secret}` });

      // Act, Assess
      await expect(runBefore(apiKeyAuth(), request)).rejects.toMatchObject({ code: 'invalid_api_key' });
    });

    it('accepts a disabled key again once it is enabled', async () => {
      const paused = await createApiKey(tenant.tenantId, 'paused key');
      await setApiKeyStatus(tenant.tenantId, paused.record.keyId, 'disabled');
      await setApiKeyStatus(tenant.tenantId, paused.record.keyId, 'active');
      const request = requestOf(tenant, { authorization: `Bearer ${paused.secret}` });

      await runBefore(apiKeyAuth(), request);

      expect(request.context.apiKey?.keyId).toBe(paused.record.keyId);
    });
  });

  describe('prefetchApiKey', () => {
    it('checks nothing: an unknown key passes it, and apiKeyAuth refuses it after', async () => {
      const request = requestOf(tenant, { 'x-api-key': WELL_FORMED_UNKNOWN_KEY });

      await runBefore(prefetchApiKey(), request);

      await expect(runBefore(apiKeyAuth(), request)).rejects.toMatchObject({ code: 'invalid_api_key' });
    });

    it('lets a request without a key pass, so that apiKeyAuth answers api_key_required', async () => {
      const request = requestOf(tenant, {});

      await runBefore(prefetchApiKey(), request);

      await expect(runBefore(apiKeyAuth(), request)).rejects.toMatchObject({ code: 'api_key_required' });
    });

    it('starts the lookup that apiKeyAuth then uses: one GetItem for both', async () => {
      // Prepare
      const request = requestOf(tenant, { authorization: `Bearer ${key.secret}` });

      // Act
      const sent = await commandsSentDuring(async () => {
        await runBefore(prefetchApiKey(), request);
        await runBefore(apiKeyAuth(), request);
      });

      // Assess
      expect(sent).toEqual(['GetItemCommand']);
      expect(request.context.apiKey).toEqual(key.record);
    });

    it.each([
      ['no key', {}],
      ['a value not shaped like a key', { 'x-api-key': 'password123' }],
    ])('looks nothing up for %s', async (_case, headers) => {
      const request = requestOf(tenant, headers);

      const sent = await commandsSentDuring(() => runBefore(prefetchApiKey(), request));

      expect(sent).toEqual([]);
    });

    it('leaves a failed lookup for apiKeyAuth to report', async () => {
      // Prepare: the store refuses the key's lookup.
      const request = requestOf(tenant, { authorization: `Bearer ${key.secret}` });
      const failure = Object.assign(new Error('throttled'), { name: 'ThrottlingException' });
      db.middlewareStack.add(
        () => async () => {
          throw failure;
        },
        { step: 'initialize', name: 'failLookup' },
      );
      let prefetched: Promise<void> | undefined;
      let checked: Promise<void> | undefined;
      try {
        // Act
        prefetched = runBefore(prefetchApiKey(), request);
        await prefetched;
        checked = runBefore(apiKeyAuth(), request);
        await checked.catch(() => undefined);
      } finally {
        db.middlewareStack.remove('failLookup');
      }

      // Assess
      await expect(prefetched).resolves.toBeUndefined();
      await expect(checked).rejects.toBe(failure);
    });
  });
});
