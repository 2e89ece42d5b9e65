import { addPackage, addShootingDay, createGallery, putFormField } from '#lib/galleries/store/galleries';
import { updateTenantSettings } from '#lib/tenants/store/tenants';
import type { Gallery } from '#lib/galleries/rules/gallery-model';
import { createTestTenant } from './factories';
import type { ApiAnswer, ApiCall } from './local-api';

/**
 * A tenant with a gallery set up for check-in tests: consent required, face consent asked
 * (notification and HR export not), selfies optional, a day of capacity 2 and one without,
 * a free and a paid package, and custom fields of every type (a required select, a number,
 * a text, a disabled one).
 */
export async function createCheckinStudio(settings: Partial<Gallery> = {}) {
  const studio = await createTestTenant();
  const { tenantId } = studio.tenant;
  const gallery = await createGallery(tenantId, {
    galleryName: 'Check-in gallery',
    isGroupShoot: true,
    selfieEnabled: true,
    selfieRequired: false,
    consentRequired: true,
    consentText: 'I agree.',
    showShootingDaySelector: true,
    granularConsents: { face: true, notification: false, hrExport: false },
    ...settings,
  });
  const token = gallery.token;
  const smallDay = await addShootingDay(tenantId, token, {
    date: '2027-05-01',
    label: 'Small',
    startTime: '09:00',
    endTime: '10:00',
    maxPersons: 2,
  });
  const openDay = await addShootingDay(tenantId, token, {
    date: '2027-05-02',
    label: 'Open',
    startTime: '09:00',
    endTime: '17:00',
  });
  const freePackage = await addPackage(tenantId, token, {
    name: 'Free',
    description: '',
    price: 0,
    currency: 'eur',
    position: 1,
  });
  const paidPackage = await addPackage(tenantId, token, {
    name: 'Premium',
    description: '',
    price: 2900,
    currency: 'eur',
    position: 2,
  });
  const field = (input: Parameters<typeof putFormField>[2]) => putFormField(tenantId, token, input);
  const size = await field({
    key: 'custom',
    label: 'Size',
    type: 'select',
    required: true,
    enabled: true,
    position: 1,
    options: [
      { value: 's', label: 'Small' },
      { value: 'm', label: 'Medium' },
    ],
  });
  const years = await field({
    key: 'custom',
    label: 'Years',
    type: 'number',
    required: false,
    enabled: true,
    position: 2,
  });
  const motto = await field({
    key: 'custom',
    label: 'Motto',
    type: 'text',
    required: false,
    enabled: true,
    position: 3,
  });
  const hidden = await field({
    key: 'custom',
    label: 'Hidden',
    type: 'text',
    required: false,
    enabled: false,
    position: 4,
  });
  return {
    ...studio,
    token,
    gallery,
    smallDay,
    openDay,
    freePackage,
    paidPackage,
    fieldKeys: { size: size.key, years: years.key, motto: motto.key, hidden: hidden.key },
    /** A body that passes every rule; a participant named otherwise gets an address of their own. */
    validBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
      return {
        action: 'submitCheckin',
        token,
        name: 'Ada Lovelace',
        email: emailOf(overrides.name),
        consentGiven: true,
        customFields: { [size.key]: 'm' },
        ...overrides,
      };
    },
    approvePayments: () => updateTenantSettings(studio.slug, { paymentAccessApproved: true }),
  };
}

export type CheckinStudio = Awaited<ReturnType<typeof createCheckinStudio>>;

/** Ada's address, or one made from another participant's name (one address may check in only so often). */
function emailOf(name: unknown): string {
  if (typeof name !== 'string' || name === 'Ada Lovelace' || name.trim() === '') return 'ada@example.com';
  return `${
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '.')
      .replace(/^\.|\.$/g, '') || 'participant'
  }@example.com`;
}

/** A check-in studio whose connected account can take payments, with a platform fee of 5 %. */
export async function createPayingStudio(settings: Partial<Gallery> = {}): Promise<CheckinStudio> {
  const studio = await createCheckinStudio(settings);
  await updateTenantSettings(studio.slug, {
    paymentAccessApproved: true,
    stripeAccountId: `acct_${studio.slug.replace(/-/g, '')}`,
    platformFeeBps: 500,
  });
  return studio;
}

/** Imports persons through the integration API, as an HR system does; answers the imported persons. */
export async function importGuests(
  api: { call(path: string, options?: ApiCall): Promise<ApiAnswer> },
  studio: CheckinStudio,
  rows: Record<string, unknown>[],
): Promise<{ personId: string; code: string; email: string | null }[]> {
  const answer = await api.call(`/group-shoot/checkin/${studio.token}/persons`, {
    method: 'POST',
    headers: { ...studio.publicHeaders, Authorization: `Bearer ${studio.apiKey}` },
    body: { persons: rows },
  });
  expect([answer.status, answer.body.imported]).toEqual([200, rows.length]);
  return answer.body.persons;
}
