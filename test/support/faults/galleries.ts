/**
 * The world the fault tests run in: one studio whose connected account can take payments, a
 * fresh gallery per test (made ahead, in a pool), and a standing clock.
 */
import { setClock } from '#lib/platform/clock';
import { createApiKey } from '#lib/tenants/store/api-keys';
import { addPackage, addShootingDay, createGallery } from '#lib/galleries/store/galleries';
import { createTenant } from '#lib/tenants/store/tenants';
import { uniqueSlug } from '../factories';
import { lab } from './fault-lab';

export const world = { tenantId: '', slug: '', apiKey: '', accountId: '' };

export interface Fixture {
  tenantId: string;
  token: string;
  dayId: string;
  freePackageId: string;
  paidPackageId: string;
  /** Checkout Sessions whose URL a participant was given. */
  handedOut: Set<string>;
}

/** Creates the studio (tenant, API key, connected account) every gallery belongs to. */
export async function createFaultStudio(): Promise<void> {
  const slug = uniqueSlug('faults');
  const accountId = `acct_${slug.replace(/-/g, '')}`;
  const tenant = await createTenant({
    slug,
    name: 'Fault studio',
    plan: 'creator',
    stripeAccountId: accountId,
    paymentAccessApproved: true,
    platformFeeBps: 500,
  });
  const { secret } = await createApiKey(tenant.tenantId, 'faults');
  Object.assign(world, { tenantId: tenant.tenantId, slug, apiKey: secret, accountId });
}

// A standing clock, moved a minute and a second before each test: every test starts with a full
// rate-limit bucket for the studio's key.
let clockNow = Date.now();

/** Stops the service's clock (lib/platform/clock.ts) at the standing time; resetClock() restarts it. */
export function standClock(): void {
  setClock(() => clockNow);
}

/**
 * What every test (and every run of an outage sweep) starts from: the clock a minute and a
 * second later, and no written keys remembered from before.
 */
export function beginRun(): void {
  clockNow += 61_000;
  lab.written.clear();
}

async function createFixture(): Promise<Fixture> {
  const gallery = await createGallery(world.tenantId, {
    galleryName: 'Fault gallery',
    isGroupShoot: true,
    selfieEnabled: true,
    selfieRequired: false,
    consentRequired: false,
    showShootingDaySelector: true,
    granularConsents: { face: false, notification: false, hrExport: false },
  });
  const [day, free, paid] = await Promise.all([
    addShootingDay(world.tenantId, gallery.token, {
      date: '2027-09-01',
      label: 'Fault day',
      startTime: '09:00',
      endTime: '17:00',
      maxPersons: 1000,
    }),
    addPackage(world.tenantId, gallery.token, {
      name: 'Free',
      description: '',
      price: 0,
      currency: 'eur',
      position: 1,
    }),
    addPackage(world.tenantId, gallery.token, {
      name: 'Premium',
      description: '',
      price: 2900,
      currency: 'eur',
      position: 2,
    }),
  ]);
  return {
    tenantId: world.tenantId,
    token: gallery.token,
    dayId: day.id,
    freePackageId: free.id,
    paidPackageId: paid.id,
    handedOut: new Set(),
  };
}

/** Galleries made ahead, many at a time (DynamoDB Local answers parallel writes faster than sequential ones). */
const galleryPool: Fixture[] = [];

export async function fillGalleryPool(count: number): Promise<void> {
  for (let made = 0; made < count; made += 25) {
    galleryPool.push(...(await Promise.all(Array.from({ length: Math.min(25, count - made) }, () => createFixture()))));
  }
}

/** A gallery nobody has used: one free package, one paid, one day of 1,000 places. */
export async function newGallery(): Promise<Fixture> {
  return galleryPool.shift() ?? createFixture();
}
