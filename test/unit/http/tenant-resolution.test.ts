import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { type Tenant, TENANT_CACHE_MS, createTenant } from '#lib/tenants/store/tenants';
import { resetClock, setClock } from '#lib/platform/clock';
import { db, tableName } from '#lib/platform/table/client';
import { keys } from '../../support/table-keys';
import { tenantResolution } from '#lib/http/tenant-resolution';
import { uniqueSlug } from '../../support/factories';
import { useTestTable } from '../../support/test-table';
import { apiEvent, apiRequest, runBefore } from './request-builders';

useTestTable();

const withSlugHeader = (headers: Record<string, string>) => apiRequest(apiEvent({ headers }));

describe('tenantResolution', () => {
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await createTenant({ slug: uniqueSlug('resolve'), name: 'Resolved Studio', plan: 'creator' });
  });

  it('sets context.tenant to the tenant of X-Tenant-Slug', async () => {
    // Prepare
    const request = withSlugHeader({ 'x-tenant-slug': tenant.slug });

    // Act
    await runBefore(tenantResolution(), request);

    // Assess
    expect(request.context.tenant).toEqual(tenant);
  });

  it.each([
    ['in capitals', (slug: string) => slug.toUpperCase()],
    ['with white space around it', (slug: string) => `  ${slug}\t`],
  ])('resolves the slug %s', async (_variant, present) => {
    const request = withSlugHeader({ 'X-Tenant-Slug': present(tenant.slug) });

    await runBefore(tenantResolution(), request);

    expect(request.context.tenant?.tenantId).toBe(tenant.tenantId);
  });

  it.each(['X-Tenant-Slug', 'x-tenant-slug', 'X-TENANT-SLUG'])('reads the header named %s', async (name) => {
    const request = withSlugHeader({ [name]: tenant.slug });

    await runBefore(tenantResolution(), request);

    expect(request.context.tenant?.slug).toBe(tenant.slug);
  });

  it.each([
    ['no header', {}],
    ['an empty header', { 'x-tenant-slug': '' }],
    ['a blank header', { 'x-tenant-slug': '   ' }],
  ])('gives 400 missing_tenant_slug for %s', async (_case, headers) => {
    const request = withSlugHeader(headers);

    await expect(runBefore(tenantResolution(), request)).rejects.toMatchObject({
      code: 'missing_tenant_slug',
      status: 400,
    });
    expect(request.context.tenant).toBeUndefined();
  });

  it.each([
    ['an unknown slug', () => uniqueSlug('nobody')],
    ['a slug that cannot be one', () => 'not a slug!'],
    ['a slug with a trailing hyphen', () => `${tenant.slug}-`],
    ['a slug of 64 characters', () => 'a'.repeat(64)],
  ])('gives 400 invalid_tenant for %s', async (_case, slug) => {
    const request = withSlugHeader({ 'x-tenant-slug': slug() });

    await expect(runBefore(tenantResolution(), request)).rejects.toMatchObject({ code: 'invalid_tenant', status: 400 });
    expect(request.context.tenant).toBeUndefined();
  });

  it('reads the plan with the tenant, for the plan check after it', async () => {
    const starter = await createTenant({ slug: uniqueSlug('plan'), name: 'Starter Studio', plan: 'starter' });
    const request = withSlugHeader({ 'x-tenant-slug': starter.slug });

    await runBefore(tenantResolution(), request);

    expect(request.context.tenant?.plan?.tier).toBe('starter');
  });

  describe('recent (GET routes)', () => {
    afterEach(() => resetClock());

    it('reuses a tenant read less than TENANT_CACHE_MS ago, then reads it again: a plan changed elsewhere shows within that time', async () => {
      // Prepare: read once; then another process (the admin CLI) changes the plan in the table.
      let clock = 1_800_000_000_000;
      setClock(() => clock);
      const studio = await createTenant({ slug: uniqueSlug('recent'), name: 'Recent Studio', plan: 'creator' });
      await runBefore(tenantResolution({ recent: true }), withSlugHeader({ 'x-tenant-slug': studio.slug }));
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: { ...keys.tenantPlan(studio.slug), tier: 'starter', updatedAt: '2027-01-01T00:00:00.000Z' },
        }),
      );

      // Act
      clock += TENANT_CACHE_MS - 1;
      const recent = withSlugHeader({ 'x-tenant-slug': studio.slug });
      await runBefore(tenantResolution({ recent: true }), recent);
      const fresh = withSlugHeader({ 'x-tenant-slug': studio.slug });
      await runBefore(tenantResolution(), fresh);
      clock += 1;
      const expired = withSlugHeader({ 'x-tenant-slug': studio.slug });
      await runBefore(tenantResolution({ recent: true }), expired);

      // Assess
      expect([
        recent.context.tenant?.plan?.tier,
        fresh.context.tenant?.plan?.tier,
        expired.context.tenant?.plan?.tier,
      ]).toEqual(['creator', 'starter', 'starter']);
    });

    it('never keeps an unknown slug: a tenant created after a miss is found at once', async () => {
      const slug = uniqueSlug('later');
      await expect(
        runBefore(tenantResolution({ recent: true }), withSlugHeader({ 'x-tenant-slug': slug })),
      ).rejects.toMatchObject({ code: 'invalid_tenant' });
      await createTenant({ slug, name: 'Later Studio', plan: 'creator' });
      const request = withSlugHeader({ 'x-tenant-slug': slug });

      await runBefore(tenantResolution({ recent: true }), request);

      expect(request.context.tenant?.slug).toBe(slug);
    });
  });
});
