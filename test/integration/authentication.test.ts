import { createApiKey, setApiKeyStatus } from '#lib/tenants/store/api-keys';
import { setTenantPlan } from '#lib/tenants/store/tenants';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { keys } from '../support/table-keys';
import { type ApiAnswer, useLocalApi } from '../support/local-api';
import { type TestTenant, createTestTenant } from '../support/factories';

const api = useLocalApi();

/** Every error answer has the same shape, and the header repeats the body's request ID. */
function expectError(answer: ApiAnswer, status: number, code: string): void {
  expect(answer.status).toBe(status);
  expect(answer.body).toEqual(
    expect.objectContaining({ ok: false, error: code, message: expect.any(String), requestId: expect.any(String) }),
  );
  expect(answer.body.message.length).toBeGreaterThan(0);
  expect(answer.headers.get('x-request-id')).toBe(answer.body.requestId);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
}

describe('authentication of server-side endpoints', () => {
  let studio: TestTenant;
  let otherStudio: TestTenant;

  beforeAll(async () => {
    [studio, otherStudio] = await Promise.all([createTestTenant(), createTestTenant()]);
  });

  const daysPaths = (token: string) => [`/group-shoot/checkin/${token}/days`, `/groupshoot/${token}/days`];

  it.each([0, 1])('answers 200 with the key in Authorization: Bearer (path variant %i)', async (variant) => {
    // Act
    const answer = await api.call(daysPaths(studio.token)[variant]!, { headers: studio.serverHeaders });
    // Assess
    expect(answer.status).toBe(200);
    expect(answer.body.ok).toBe(true);
    expect(answer.headers.get('x-request-id')).toBe(answer.body.requestId);
  });

  it('accepts the key in X-Api-Key', async () => {
    const answer = await api.call(daysPaths(studio.token)[1]!, {
      headers: { 'X-Tenant-Slug': studio.slug, 'X-Api-Key': studio.apiKey },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.galleryToken).toBe(studio.token);
  });

  it('gives 400 missing_tenant_slug without X-Tenant-Slug', async () => {
    const answer = await api.call(daysPaths(studio.token)[0]!, {
      headers: { Authorization: `Bearer ${studio.apiKey}` },
    });
    expectError(answer, 400, 'missing_tenant_slug');
  });

  it.each(['no-such-studio', 'Not A Slug!', 'a'.repeat(64)])('gives 400 invalid_tenant for slug %s', async (slug) => {
    const answer = await api.call(daysPaths(studio.token)[0]!, {
      headers: { 'X-Tenant-Slug': slug, Authorization: `Bearer ${studio.apiKey}` },
    });
    expectError(answer, 400, 'invalid_tenant');
  });

  it('gives 401 api_key_required without a key', async () => {
    const answer = await api.call(daysPaths(studio.token)[0]!, { headers: studio.publicHeaders });
    expectError(answer, 401, 'api_key_required');
  });

  it.each([
    ['the key without Bearer', () => studio.apiKey, 'holds a key without the Bearer scheme'],
    ['another scheme', () => `Basic ${Buffer.from('a:b').toString('base64')}`, 'is not `Bearer <API key>`'],
  ])(
    "gives 401 api_key_required, the contract's code, for an Authorization header of %s, with the reason in message",
    async (_case, authorization, reason) => {
      const answer = await api.call(daysPaths(studio.token)[0]!, {
        headers: { ...studio.publicHeaders, Authorization: authorization() },
      });
      expectError(answer, 401, 'api_key_required');
      expect(answer.body.message).toContain(reason);
    },
  );

  it('checks the tenant before the Authorization scheme', async () => {
    const answer = await api.call(daysPaths(studio.token)[0]!, {
      headers: { 'X-Tenant-Slug': 'nobody-here', Authorization: studio.apiKey },
    });
    expectError(answer, 400, 'invalid_tenant');
  });

  it.each([
    ['a wrong key of the right shape', () => `gsk_${'A'.repeat(40)}`],
    ['a value that is not a key at all', () => 'hello'],
    ["another tenant's key", () => otherStudio.apiKey],
  ])('gives 401 invalid_api_key for %s', async (_case, keyOf) => {
    const answer = await api.call(daysPaths(studio.token)[0]!, {
      headers: { ...studio.publicHeaders, Authorization: `Bearer ${keyOf()}` },
    });
    expectError(answer, 401, 'invalid_api_key');
  });

  it.each(['revoked', 'disabled'] as const)(
    'gives 401 invalid_api_key for a %s key, in both headers',
    async (status) => {
      // Prepare
      const { secret, record } = await createApiKey(studio.tenant.tenantId, `to be ${status}`);
      const before = await api.call(daysPaths(studio.token)[0]!, {
        headers: { ...studio.publicHeaders, 'X-Api-Key': secret },
      });
      expect(before.status).toBe(200);
      await setApiKeyStatus(studio.tenant.tenantId, record.keyId, status);
      // Act
      const viaBearer = await api.call(daysPaths(studio.token)[0]!, {
        headers: { ...studio.publicHeaders, Authorization: `Bearer ${secret}` },
      });
      const viaHeader = await api.call(daysPaths(studio.token)[1]!, {
        headers: { ...studio.publicHeaders, 'X-Api-Key': secret },
      });
      // Assess
      expectError(viaBearer, 401, 'invalid_api_key');
      expectError(viaHeader, 401, 'invalid_api_key');
    },
  );

  it('lets a disabled key work again once enabled, but never a revoked one', async () => {
    const { secret, record } = await createApiKey(studio.tenant.tenantId, 'toggled');
    await setApiKeyStatus(studio.tenant.tenantId, record.keyId, 'disabled');
    await setApiKeyStatus(studio.tenant.tenantId, record.keyId, 'active');
    const enabled = await api.call(daysPaths(studio.token)[0]!, {
      headers: { ...studio.publicHeaders, 'X-Api-Key': secret },
    });
    expect(enabled.status).toBe(200);

    await setApiKeyStatus(studio.tenant.tenantId, record.keyId, 'revoked');
    expect(await setApiKeyStatus(studio.tenant.tenantId, record.keyId, 'active')).toBe('revoked_already');
    const revoked = await api.call(daysPaths(studio.token)[0]!, {
      headers: { ...studio.publicHeaders, 'X-Api-Key': secret },
    });
    expectError(revoked, 401, 'invalid_api_key');
  });

  it("does not serve another tenant's gallery to a valid key", async () => {
    const answer = await api.call(daysPaths(otherStudio.token)[0]!, { headers: studio.serverHeaders });
    expectError(answer, 404, 'gallery_not_found');
  });

  it('checks the tenant before the key: a wrong slug with a valid key is invalid_tenant', async () => {
    const answer = await api.call(daysPaths(studio.token)[0]!, {
      headers: { 'X-Tenant-Slug': 'nobody-here', Authorization: `Bearer ${studio.apiKey}` },
    });
    expectError(answer, 400, 'invalid_tenant');
  });
});

describe('plan check', () => {
  it.each(['free', 'starter'] as const)('gives 403 plan_upgrade_required on the %s plan', async (plan) => {
    const studio = await createTestTenant({ plan });
    const answer = await api.call(`/groupshoot/${studio.token}/days`, { headers: studio.serverHeaders });
    expectError(answer, 403, 'plan_upgrade_required');
  });

  it.each(['creator', 'pro', 'studio'] as const)('admits the %s plan', async (plan) => {
    const studio = await createTestTenant({ plan });
    const answer = await api.call(`/groupshoot/${studio.token}/days`, { headers: studio.serverHeaders });
    expect(answer.status).toBe(200);
  });

  it('takes a plan change into account on the next request', async () => {
    const studio = await createTestTenant({ plan: 'creator' });
    await setTenantPlan(studio.slug, 'free');
    const answer = await api.call(`/groupshoot/${studio.token}/days`, { headers: studio.serverHeaders });
    expectError(answer, 403, 'plan_upgrade_required');
  });

  it('gives 503 plan_check_unavailable when the plan record is missing', async () => {
    const studio = await createTestTenant();
    await db.send(new DeleteCommand({ TableName: tableName, Key: keys.tenantPlan(studio.slug) }));
    const answer = await api.call(`/groupshoot/${studio.token}/days`, { headers: studio.serverHeaders });
    expectError(answer, 503, 'plan_check_unavailable');
  });

  it('gives 503 plan_check_unavailable when the plan record names an unknown tier', async () => {
    const studio = await createTestTenant();
    await db.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...keys.tenantPlan(studio.slug), tier: 'platinum-2030', updatedAt: 'x' },
      }),
    );
    const answer = await api.call(`/groupshoot/${studio.token}/days`, { headers: studio.serverHeaders });
    expectError(answer, 503, 'plan_check_unavailable');
  });

  it('does not apply to public endpoints', async () => {
    const studio = await createTestTenant({ plan: 'free' });
    const answer = await api.call(`/group-shoot/checkin/${studio.token}`, { headers: studio.publicHeaders });
    expect(answer.status).toBe(200);
  });
});

describe('routing', () => {
  let studio: TestTenant;
  beforeAll(async () => {
    studio = await createTestTenant();
  });

  it.each(['/nothing-here', '/group-shoot/checkin', '/groupshoot/abc/unknown', '/group-shoot/checkin/a/b/c/d/e'])(
    'gives 404 not_found for %s',
    async (path) => {
      const answer = await api.call(path, { headers: studio.serverHeaders });
      expectError(answer, 404, 'not_found');
    },
  );

  it('gives 404 not_found outside the v1 stage', async () => {
    const response = await fetch(api.url.replace(/\/v1$/, '/v2/groupshoot/x/days'));
    const body = (await response.json()) as { requestId: string };
    expect(response.status).toBe(404);
    expect(body).toEqual(expect.objectContaining({ ok: false, error: 'not_found' }));
    expect(response.headers.get('x-request-id')).toBe(body.requestId);
  });

  it.each([
    ['DELETE', '/group-shoot/checkin/TOKEN/days', 'GET'],
    ['PUT', '/groupshoot/TOKEN/days', 'GET'],
    ['POST', '/group-shoot/checkin/TOKEN', 'GET, OPTIONS'],
    ['PATCH', '/group-shoot/checkin/TOKEN', 'GET, OPTIONS'],
    ['GET', '/group-shoot', 'OPTIONS, POST'],
    ['OPTIONS', '/groupshoot/TOKEN/days', 'GET'],
  ])('gives 405 method_not_allowed for %s %s, with Allow', async (method, path, allowed) => {
    const answer = await api.call(path.replace('TOKEN', studio.token), { method, headers: studio.serverHeaders });
    expectError(answer, 405, 'method_not_allowed');
    expect(answer.headers.get('allow')).toBe(allowed);
  });

  it('answers 405 before checking the tenant', async () => {
    const answer = await api.call(`/groupshoot/${studio.token}/days`, { method: 'DELETE' });
    expectError(answer, 405, 'method_not_allowed');
  });
});
