import { forgetRecentTenants, getRecentTenantBySlug } from '#lib/tenants/store/tenants';
import { prefetchGalleryPointer } from '#lib/http/gallery-pointer-prefetch';
import { type TestTenant, createTestTenant } from '../../support/factories';
import { useTestTable } from '../../support/test-table';
import { apiEvent, apiRequest, runBefore } from './request-builders';

useTestTable();

const requestFor = (slug: string | undefined, token: string) =>
  apiRequest(
    apiEvent({ path: `/group-shoot/checkin/${token}`, headers: slug === undefined ? {} : { 'x-tenant-slug': slug } }),
    { pathParameters: { token } },
  );

describe('prefetchGalleryPointer', () => {
  let studio: TestTenant;
  beforeAll(async () => {
    studio = await createTestTenant();
  });
  beforeEach(() => forgetRecentTenants());

  it("starts reading the token's pointers where the slug's tenant is not among this process's recent reads", async () => {
    // Prepare: the slug as a browser may send it, in capitals.
    const request = requestFor(`  ${studio.slug.toUpperCase()} `, studio.token);
    // Act
    await runBefore(prefetchGalleryPointer(), request);
    // Assess
    expect(await request.context.galleryPointerLookup).toEqual([{ tenantId: studio.tenant.tenantId }]);
  });

  it('starts nothing where the tenant was read lately: the limits path of a warm instance needs no pointer', async () => {
    await getRecentTenantBySlug(studio.slug);
    const request = requestFor(studio.slug.toUpperCase(), studio.token);
    await runBefore(prefetchGalleryPointer(), request);
    expect(request.context.galleryPointerLookup).toBeUndefined();
  });

  it.each<[string, string | undefined, () => string]>([
    ['no tenant slug', undefined, () => studio.token],
    ['a token of the wrong shape', 'any-studio', () => 'not a token'],
  ])(
    'starts nothing and raises nothing for %s: tenantResolution and the use case answer as before',
    async (_case, slug, tokenOf) => {
      const request = requestFor(slug, tokenOf());
      await expect(runBefore(prefetchGalleryPointer(), request)).resolves.toBeUndefined();
      expect(request.context.galleryPointerLookup).toBeUndefined();
    },
  );
});
