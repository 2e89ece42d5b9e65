import { type ApiKeyRecord, createApiKey, setApiKeyStatus } from '#lib/tenants/store/api-keys';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { keys } from '../../support/table-keys';
import { hashApiKey } from '#lib/tenants/rules/api-key-secret';
import { type Tenant, createTenant } from '#lib/tenants/store/tenants';
import { apiKeyAuth, presentedApiKey, takenVerdict } from '#lib/http/api-key-auth';
import type { ApiRequest } from '#lib/http/types';
import { ERROR_CATALOG } from '#lib/http/errors';
import { uniqueSlug } from '../../support/factories';
import { commandsSentDuring } from '../../support/sent-commands';
import { useTestTable } from '../../support/test-table';
import { apiEvent, apiRequest, runBefore } from './request-builders';

useTestTable();

const WELL_FORMED_UNKNOWN_KEY = `gsk_${'Z'.repeat(40)}`;

/** A request of `tenant` presenting these headers, as it reaches the key check. */
function requestOf(tenant: Tenant | undefined, headers: Record<string, string>): ApiRequest {
  return apiRequest(apiEvent({ headers }), { tenant });
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

    it('gives 401 api_key_required with the catalogue message without a key', async () => {
      const request = requestOf(tenant, { 'x-tenant-slug': tenant.slug });

      await expect(runBefore(apiKeyAuth(), request)).rejects.toMatchObject({
        code: 'api_key_required',
        status: 401,
        message: ERROR_CATALOG.api_key_required.message,
      });
    });

    it.each([
      ['a bare key without Bearer', (secret: string) => ({ authorization: secret }), 'without the Bearer scheme'],
      ['another scheme', () => ({ authorization: 'Basic dXNlcjpwYXNz' }), 'is not `Bearer <API key>`'],
      ['an empty Bearer', () => ({ authorization: 'Bearer' }), 'is not `Bearer <API key>`'],
      [
        'a Bearer of two words',
        (secret: string) => ({ authorization: `Bearer ${secret} extra` }),
        'is not `Bearer <API key>`',
      ],
    ])('gives 401 api_key_required to %s, saying why, without looking anything up', async (_case, headers, reason) => {
      // Prepare
      const request = requestOf(tenant, headers(key.secret));

      // Act
      const sent = await commandsSentDuring(() =>
        expect(runBefore(apiKeyAuth(), request)).rejects.toMatchObject({
          code: 'api_key_required',
          status: 401,
          message: expect.stringContaining(reason),
        }),
      );

      // Assess
      expect(sent).toEqual([]);
      expect(request.context.apiKey).toBeUndefined();
    });

    it('takes the key of X-Api-Key beside an Authorization header of another scheme', async () => {
      const request = requestOf(tenant, { authorization: 'Basic dXNlcjpwYXNz', 'x-api-key': key.secret });

      await runBefore(apiKeyAuth(), request);

      expect(request.context.apiKey).toEqual(key.record);
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

  describe('one write for key, plan and rate limit', () => {
    it('checks an active key of the tenant with one UpdateItem, which also takes the request from its counter', async () => {
      // Prepare
      const fresh = await createApiKey(tenant.tenantId, 'one write');
      const request = requestOf(tenant, { authorization: `Bearer ${fresh.secret}` });

      // Act
      const sent = await commandsSentDuring(() => runBefore(apiKeyAuth(), request));

      // Assess
      expect(sent).toEqual(['UpdateItemCommand']);
      expect(request.context.apiKey).toEqual(fresh.record);
      expect(takenVerdict(request)?.verdict).toMatchObject({ admitted: true, remaining: 59 });
    });

    it.each([
      ['an unknown key', () => WELL_FORMED_UNKNOWN_KEY, () => tenant],
      ["another tenant's key", () => key.secret, () => otherTenant],
    ])('writes nothing for %s: the refused write leaves the item as it was', async (_case, secret, presentedTo) => {
      // Prepare
      const request = requestOf(presentedTo(), { 'x-api-key': secret() });
      const before = await rawKeyItem(key.secret);

      // Act
      const sent = await commandsSentDuring(() =>
        expect(runBefore(apiKeyAuth(), request)).rejects.toMatchObject({ code: 'invalid_api_key' }),
      );

      // Assess
      expect(sent).toEqual(['UpdateItemCommand']);
      expect(await rawKeyItem(key.secret)).toEqual(before);
      expect(takenVerdict(request)).toBeUndefined();
    });

    it('refuses a key on the request right after its revocation', async () => {
      // Prepare
      const revoked = await createApiKey(tenant.tenantId, 'revoked next');
      await runBefore(apiKeyAuth(), requestOf(tenant, { 'x-api-key': revoked.secret }));
      await setApiKeyStatus(tenant.tenantId, revoked.record.keyId, 'revoked');

      // Act, Assess
      await expect(runBefore(apiKeyAuth(), requestOf(tenant, { 'x-api-key': revoked.secret }))).rejects.toMatchObject({
        code: 'invalid_api_key',
      });
    });

    it('only reads the key, strongly consistent, when the plan will refuse the request', async () => {
      // Prepare
      const starter = await createTenant({ slug: uniqueSlug('starter'), name: 'Starter Studio', plan: 'starter' });
      const starterKey = await createApiKey(starter.tenantId, 'starter key');
      const request = requestOf(starter, { 'x-api-key': starterKey.secret });
      const before = await rawKeyItem(starterKey.secret);

      // Act
      const sent = await commandsSentDuring(() => runBefore(apiKeyAuth(), request));

      // Assess: the key passes, no verdict was taken, and the item is as it was.
      expect(sent).toEqual(['GetItemCommand']);
      expect(request.context.apiKey).toEqual(starterKey.record);
      expect(takenVerdict(request)).toBeUndefined();
      expect(await rawKeyItem(starterKey.secret)).toEqual(before);
    });

    it('still refuses an invalid key of a tenant whose plan will refuse, before the plan speaks', async () => {
      const starter = await createTenant({ slug: uniqueSlug('starter'), name: 'Starter Studio', plan: 'starter' });
      const request = requestOf(starter, { 'x-api-key': key.secret });

      await expect(runBefore(apiKeyAuth(), request)).rejects.toMatchObject({ code: 'invalid_api_key' });
    });

    it('reports a failed write', async () => {
      // Prepare: the store refuses the key's write.
      const request = requestOf(tenant, { authorization: `Bearer ${key.secret}` });
      const failure = Object.assign(new Error('throttled'), { name: 'ThrottlingException' });
      db.middlewareStack.add(
        () => async () => {
          throw failure;
        },
        { step: 'initialize', name: 'failWrite' },
      );
      let checked: Promise<void> | undefined;
      try {
        // Act
        checked = runBefore(apiKeyAuth(), request);
        await checked.catch(() => undefined);
      } finally {
        db.middlewareStack.remove('failWrite');
      }

      // Assess
      await expect(checked).rejects.toBe(failure);
    });
  });
});

/** The key's item as stored, every attribute. */
async function rawKeyItem(secret: string): Promise<Record<string, unknown> | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName, Key: keys.apiKey(hashApiKey(secret)), ConsistentRead: true }),
  );
  return Item;
}
