import { now } from '#lib/platform/clock';
import { createApiKey } from '#lib/tenants/store/api-keys';
import { addPackage, addShootingDay, createGallery, putFormField } from '#lib/galleries/store/galleries';
import { createTenant, getTenantBySlug } from '#lib/tenants/store/tenants';

export const DEMO_TENANT_SLUG = 'demo-studio';

export interface DemoData {
  tenantSlug: string;
  apiKey: string;
  galleryToken: string;
  otherGalleryToken: string;
  shootingDayIds: string[];
  packageIds: { free: string; paid: string };
}

/** YYYY-MM-DD, `days` from today, so the demo's shooting days are always ahead. */
function dateInDays(days: number): string {
  return new Date(now() + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The demo tenant: Creator plan, one API key, a group-shoot gallery with three shooting days
 * (one of capacity 3, one without capacity), a free and a paid package, form fields of every
 * type, and an ordinary gallery that is not a group shoot. Undefined when it exists already.
 */
export async function seedDemo(): Promise<DemoData | undefined> {
  if (await getTenantBySlug(DEMO_TENANT_SLUG)) return undefined;
  const tenant = await createTenant({
    slug: DEMO_TENANT_SLUG,
    name: 'Demo Studio',
    plan: 'creator',
    stripeAccountId: 'acct_demo_studio',
    paymentAccessApproved: true,
  });
  const { secret } = await createApiKey(tenant.tenantId, 'Local demo key');

  const gallery = await createGallery(tenant.tenantId, {
    galleryName: 'Acme Corp Team Portraits',
    isGroupShoot: true,
    selfieEnabled: true,
    selfieRequired: false,
    consentRequired: true,
    consentText: 'I agree that Demo Studio takes and processes my portrait photos for Acme Corp.',
    showShootingDaySelector: true,
    granularConsents: { face: true, notification: true, hrExport: true },
  });
  const { tenantId } = tenant;
  const { token } = gallery;
  const days = [
    await addShootingDay(tenantId, token, {
      date: dateInDays(14),
      label: 'Headquarters',
      startTime: '09:00',
      endTime: '17:00',
      maxPersons: 60,
    }),
    await addShootingDay(tenantId, token, {
      date: dateInDays(15),
      label: 'Small studio',
      startTime: '10:00',
      endTime: '12:00',
      maxPersons: 3,
    }),
    await addShootingDay(tenantId, token, {
      date: dateInDays(16),
      label: 'Open day',
      startTime: '09:00',
      endTime: '16:00',
    }),
  ];
  const free = await addPackage(tenantId, token, {
    name: 'Standard portrait',
    description: 'One retouched portrait for the company directory.',
    price: 0,
    currency: 'eur',
    position: 1,
  });
  const paid = await addPackage(tenantId, token, {
    name: 'Premium package',
    description: 'Five retouched portraits in high resolution for private use.',
    price: 2900,
    currency: 'eur',
    position: 2,
  });
  const fields = [
    { key: 'employeeId', label: 'Employee number', type: 'text', required: true },
    { key: 'phone', label: 'Mobile phone', type: 'text', required: false },
    { key: 'department', label: 'Department', type: 'text', required: false },
    { key: 'notes', label: 'Anything we should know?', type: 'textarea', required: false },
    {
      key: 'custom',
      label: 'Background colour',
      type: 'select',
      required: false,
      options: [
        { value: 'white', label: 'White' },
        { value: 'grey', label: 'Light grey' },
        { value: 'blue', label: 'Corporate blue' },
      ],
    },
    { key: 'custom', label: 'Years with the company', type: 'number', required: false },
    { key: 'custom', label: 'Internal cost centre (hidden)', type: 'text', required: false, enabled: false },
  ] as const;
  for (const [position, field] of fields.entries()) {
    await putFormField(tenantId, token, {
      enabled: true,
      ...field,
      options: 'options' in field ? [...field.options] : undefined,
      position,
    });
  }

  const other = await createGallery(tenantId, {
    galleryName: 'Studio portfolio',
    isGroupShoot: false,
    selfieEnabled: false,
    selfieRequired: false,
    consentRequired: false,
    showShootingDaySelector: false,
    granularConsents: { face: false, notification: false, hrExport: false },
  });
  return {
    tenantSlug: tenant.slug,
    apiKey: secret,
    galleryToken: token,
    otherGalleryToken: other.token,
    shootingDayIds: days.map((day) => day.id),
    packageIds: { free: free.id, paid: paid.id },
  };
}
