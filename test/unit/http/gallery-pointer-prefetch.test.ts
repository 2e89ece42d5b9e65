import { type Tenant, createTenant, forgetRecentTenants, getRecentTenantBySlug } from '#lib/tenants/store/tenants';
import { createGallery } from '#lib/galleries/store/galleries';
import { prefetchGalleryPointer } from '#lib/http/gallery-pointer-prefetch';
import { uniqueSlug } from '../../support/factories';
import { useTestTable } from '../../support/test-table';
import { apiEvent, apiRequest, runBefore } from './request-builders';

useTestTable();

const requestFor = (slug: string | undefined, token: string) =>
  apiRequest(apiEvent({ path: `/group-shoot/checkin/${token}`, headers: slug === undefined ? {} : { 'x-tenant-slug': slug } }), { pathParameters: { token } });

describe('prefetchGalleryPointer', () => {
  let tenant: Tenant;
  let token: string;
  beforeAll(async () => {
    tenant = await createTenant({ slug: uniqueSlug('pointer'), name: 'Pointed Studio', plan: 'creator' });
    token = (
      await createGallery(tenant.tenantId, {
        galleryName: 'Pointed',
        isGroupShoot: true,
        selfieEnabled: false,
        selfieRequired: false,
        consentRequired: false,
        showShootingDaySelector: false,
        granularConsents: { face: false, notification: false, hrExport: false },
      })
    ).token;
  });
  beforeEach(() => forgetRecentTenants());

  it("starts reading the token's pointers where the slug's tenant is not among this process's recent reads", async () => {
    // Prepare: the slug as a browser may send it, in capitals.
    const request = requestFor(`  ${tenant.slug.toUpperCase()} `, token);
    // Act
    await runBefore(prefetchGalleryPointer(), request);
    // Assess
    expect(await request.context.galleryPointerLookup).toEqual([{ tenantId: tenant.tenantId }]);
  });

  it('starts nothing where the tenant was read lately: the limits path of a warm instance needs no pointer', async () => {
    await getRecentTenantBySlug(tenant.slug);
    const request = requestFor(tenant.slug.toUpperCase(), token);
    await runBefore(prefetchGalleryPointer(), request);
    expect(request.context.galleryPointerLookup).toBeUndefined();
  });

  it.each<[string, string | undefined, () => string]>([
    ['no tenant slug', undefined, () => token],
    ['a token of the wrong shape', 'any-studio', () => 'not a token'],
  ])('starts nothing and raises nothing for %s: tenantResolution and the use case answer as before', async (_case, slug, tokenOf) => {
    const request = requestFor(slug, tokenOf());
    await expect(runBefore(prefetchGalleryPointer(), request)).resolves.toBeUndefined();
    expect(request.context.galleryPointerLookup).toBeUndefined();
  });
});
