import { randomBytes } from 'node:crypto';
import { createApiKey } from '#lib/tenants/store/api-keys';
import { addPackage, addShootingDay, createGallery } from '#lib/galleries/store/galleries';
import { createTenant } from '#lib/tenants/store/tenants';
import type { PlanTier } from '#lib/tenants/rules/plans';

export function uniqueSlug(prefix = 't'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}`;
}

/**
 * A tenant of its own for one test: plan, an active API key, a group-shoot gallery with two
 * shooting days and a package, and an ordinary gallery. Headers for both kinds of call.
 */
export async function createTestTenant(options: { plan?: PlanTier } = {}) {
  const slug = uniqueSlug();
  const tenant = await createTenant({ slug, name: `Studio ${slug}`, plan: options.plan ?? 'creator' });
  const { secret: apiKey, record: key } = await createApiKey(tenant.tenantId, 'test key');
  const gallery = await createGallery(tenant.tenantId, {
    galleryName: 'Team portraits',
    isGroupShoot: true,
    selfieEnabled: true,
    selfieRequired: false,
    consentRequired: true,
    showShootingDaySelector: true,
    granularConsents: { face: true, notification: false, hrExport: false },
  });
  const laterDay = await addShootingDay(tenant.tenantId, gallery.token, {
    date: '2027-03-02',
    label: 'Second day',
    startTime: '09:00',
    endTime: '12:00',
  });
  const earlierDay = await addShootingDay(tenant.tenantId, gallery.token, {
    date: '2027-03-01',
    label: 'First day',
    startTime: '13:00',
    endTime: '17:00',
    maxPersons: 5,
  });
  const freePackage = await addPackage(tenant.tenantId, gallery.token, {
    name: 'Standard',
    description: 'One portrait',
    price: 0,
    currency: 'eur',
    position: 1,
  });
  const ordinaryGallery = await createGallery(tenant.tenantId, {
    galleryName: 'Portfolio',
    isGroupShoot: false,
    selfieEnabled: false,
    selfieRequired: false,
    consentRequired: false,
    showShootingDaySelector: false,
    granularConsents: { face: false, notification: false, hrExport: false },
  });
  return {
    tenant,
    slug,
    apiKey,
    key,
    gallery,
    token: gallery.token,
    ordinaryToken: ordinaryGallery.token,
    days: { earlier: earlierDay, later: laterDay },
    freePackage,
    publicHeaders: { 'X-Tenant-Slug': slug },
    serverHeaders: { 'X-Tenant-Slug': slug, Authorization: `Bearer ${apiKey}` },
  };
}

export type TestTenant = Awaited<ReturnType<typeof createTestTenant>>;
