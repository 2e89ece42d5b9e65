import { getTenantBySlug } from '#lib/tenants/store/tenants';
import { keys } from '../../support/table-keys';
import { queryPartition } from '#lib/platform/table/queries';
import { ALLOWED_RETURN_ORIGINS_MAX } from '#lib/payments/checkout-urls';
import { type AdminRun, admin } from '../../support/admin';
import { useLocalApi } from '../../support/local-api';
import { type CheckinStudio, createPayingStudio } from '../../support/checkin-gallery';
import { uniqueSlug } from '../../support/factories';
import { useStripeEmulator } from '../../support/stripe';

/**
 * Return URLs (docs/payments.md#return-urls): Stripe sends participants back only to the
 * check-in page's origin, to origins the studio allowed with `npm run admin -- tenant
 * allow-origin`, and on the local stack to localhost. The origins are managed through the
 * admin CLI (scripts/admin/run-admin.ts, in this process) and checked over HTTP.
 */
const api = useLocalApi({ checkinPage: true });
const stripe = useStripeEmulator(api);

const STUDIO_ORIGIN = 'https://photos.studio.example';
const CHECKIN_PAGE = 'https://checkin.example.com/page'; // CHECKIN_PAGE_URL, set by useStripeEmulator

const post = (studio: CheckinStudio, body: Record<string, unknown>) =>
  api.call('/group-shoot', { method: 'POST', headers: studio.publicHeaders, body });
const paidBody = (studio: CheckinStudio, overrides: Record<string, unknown> = {}) =>
  studio.validBody({
    selectedPackageId: studio.paidPackage.id,
    termsAccepted: true,
    shootingDayId: studio.smallDay.id,
    ...overrides,
  });
const sessionOf = (checkoutUrl: string) => stripe.emulator.sessions.get(checkoutUrl.split('/').pop()!)!;
const ordersOf = (studio: CheckinStudio) => queryPartition(keys.order(studio.tenant.tenantId, studio.token, 'x').pk);
const sessionsOfGallery = (studio: CheckinStudio) =>
  [...stripe.emulator.sessions.values()].filter((session) => session.metadata?.galleryToken === studio.token);

/** The refusal of a return URL whose origin the studio may not send participants to. */
function expectOriginRefused(answer: { status: number; body: any }, origin: string): void {
  expect(answer.status).toBe(400);
  expect(answer.body).toEqual(expect.objectContaining({ ok: false, error: 'invalid_field', field: 'returnUrl' }));
  expect(answer.body.message).toContain(`The origin ${origin} is not allowed for this studio`);
}

function expectDone(run: AdminRun): void {
  expect({ code: run.code, err: run.err }).toEqual({ code: 0, err: [] });
}

describe('npm run admin -- tenant origins | allow-origin | disallow-origin', () => {
  it('allows, lists and takes back return origins, in their normal form', async () => {
    // Prepare
    const studio = await createPayingStudio();
    // Act
    const before = await admin('tenant', 'origins', '--slug', studio.slug);
    const allowed = await admin(
      'tenant',
      'allow-origin',
      '--slug',
      studio.slug,
      '--origin',
      'HTTPS://Photos.Studio.Example:443/',
    );
    const second = await admin(
      'tenant',
      'allow-origin',
      '--slug',
      studio.slug,
      '--origin',
      'https://shop.studio.example',
    );
    const again = await admin('tenant', 'allow-origin', '--slug', studio.slug, '--origin', STUDIO_ORIGIN);
    const listed = await admin('tenant', 'origins', '--slug', studio.slug, '--json');
    const shown = await admin('tenant', 'show', '--slug', studio.slug);
    const removed = await admin(
      'tenant',
      'disallow-origin',
      '--slug',
      studio.slug,
      '--origin',
      'https://shop.studio.example',
    );
    // Assess
    for (const run of [before, allowed, second, again, listed, shown, removed]) expectDone(run);
    expect(before.out).toContain(`Return origins of tenant ${studio.slug}: none`);
    expect(allowed.out).toContain(`Allowed return origin ${STUDIO_ORIGIN} for tenant "${studio.slug}"`);
    expect(again.out).toContain(`Tenant "${studio.slug}" allowed return origin ${STUDIO_ORIGIN} already`);
    expect(listed.json()).toEqual({
      slug: studio.slug,
      allowedReturnOrigins: ['https://photos.studio.example', 'https://shop.studio.example'],
    });
    expect(shown.out).toMatch(/return origins\s+https:\/\/photos\.studio\.example, https:\/\/shop\.studio\.example/);
    expect(removed.out).toContain(`Disallowed return origin https://shop.studio.example for tenant "${studio.slug}"`);
    expect((await getTenantBySlug(studio.slug))?.allowedReturnOrigins).toEqual([STUDIO_ORIGIN]);
  });

  it.each([
    ['http', 'http://photos.studio.example'],
    ['a path', 'https://photos.studio.example/checkin'],
    ['a query', 'https://photos.studio.example/?from=mail'],
    ['localhost', 'https://localhost:8443'],
    ['no URL', 'photos.studio.example'],
  ])('refuses an origin with %s as a usage error (exit 2) and stores nothing', async (_case, origin) => {
    const studio = await createPayingStudio();
    const run = await admin('tenant', 'allow-origin', '--slug', studio.slug, '--origin', origin);
    expect(run.code).toBe(2);
    expect(run.err).toEqual([expect.stringContaining(`--origin "${origin}" is not an https origin`)]);
    expect((await getTenantBySlug(studio.slug))?.allowedReturnOrigins).toBeUndefined();
  });

  it('exits 1 for an unknown tenant, an origin not allowed, and one origin beyond the limit', async () => {
    // Prepare
    const studio = await createPayingStudio();
    for (let index = 0; index < ALLOWED_RETURN_ORIGINS_MAX; index += 1) {
      expectDone(
        await admin('tenant', 'allow-origin', '--slug', studio.slug, '--origin', `https://studio-${index}.example`),
      );
    }
    // Act
    const unknown = await admin('tenant', 'allow-origin', '--slug', uniqueSlug('nobody'), '--origin', STUDIO_ORIGIN);
    const notAllowed = await admin('tenant', 'disallow-origin', '--slug', studio.slug, '--origin', STUDIO_ORIGIN);
    const beyond = await admin('tenant', 'allow-origin', '--slug', studio.slug, '--origin', STUDIO_ORIGIN);
    const known = await admin('tenant', 'allow-origin', '--slug', studio.slug, '--origin', 'https://studio-0.example');
    // Assess
    expect([unknown.code, notAllowed.code, beyond.code, known.code]).toEqual([1, 1, 1, 0]);
    expect(unknown.err).toEqual([expect.stringMatching(/^No tenant with slug/)]);
    expect(notAllowed.err).toEqual([`Tenant "${studio.slug}" does not allow the return origin ${STUDIO_ORIGIN}`]);
    expect(beyond.err).toEqual([
      `Tenant "${studio.slug}" allows ${ALLOWED_RETURN_ORIGINS_MAX} return origins already; disallow one first`,
    ]);
    expect((await getTenantBySlug(studio.slug))?.allowedReturnOrigins).toHaveLength(ALLOWED_RETURN_ORIGINS_MAX);
  });
});

describe('POST /group-shoot: where Stripe may send participants back', () => {
  it('takes a returnUrl only on an origin the studio allowed, from the moment it is allowed until it is taken back', async () => {
    // Prepare
    const studio = await createPayingStudio();
    const returnUrl = `${STUDIO_ORIGIN}/welcome?lang=de`;
    // Act
    const before = await post(studio, paidBody(studio, { returnUrl }));
    expectDone(await admin('tenant', 'allow-origin', '--slug', studio.slug, '--origin', STUDIO_ORIGIN));
    const allowed = await post(studio, paidBody(studio, { returnUrl }));
    expectDone(await admin('tenant', 'disallow-origin', '--slug', studio.slug, '--origin', STUDIO_ORIGIN));
    const after = await post(studio, paidBody(studio, { returnUrl }));
    // Assess
    expectOriginRefused(before, STUDIO_ORIGIN);
    expect(allowed.status).toBe(200);
    expect(sessionOf(allowed.body.checkoutUrl).success_url).toMatch(
      new RegExp(`^${STUDIO_ORIGIN}/welcome\\?lang=de&checkout=success&`),
    );
    expect(sessionOf(allowed.body.checkoutUrl).cancel_url).toMatch(new RegExp(`^${STUDIO_ORIGIN}/welcome\\?`));
    expectOriginRefused(after, STUDIO_ORIGIN);
    expect(await ordersOf(studio)).toHaveLength(1); // the refused check-ins reserved nothing
  });

  it("takes the check-in page's origin for every studio, and no origin another studio allowed", async () => {
    const [studio, other] = await Promise.all([createPayingStudio(), createPayingStudio()]);
    expectDone(await admin('tenant', 'allow-origin', '--slug', other.slug, '--origin', STUDIO_ORIGIN));
    const page = await post(studio, paidBody(studio, { returnUrl: 'https://checkin.example.com/another/path' }));
    const fallback = await post(studio, paidBody(studio));
    const others = await post(studio, paidBody(studio, { returnUrl: `${STUDIO_ORIGIN}/` }));
    expect([page.status, fallback.status]).toEqual([200, 200]);
    expect(sessionOf(page.body.checkoutUrl).success_url).toMatch(/^https:\/\/checkin\.example\.com\/another\/path\?/);
    expect(sessionOf(fallback.body.checkoutUrl).success_url.startsWith(`${CHECKIN_PAGE}?`)).toBe(true);
    expectOriginRefused(others, STUDIO_ORIGIN);
    expect(sessionsOfGallery(studio)).toHaveLength(2);
  });

  describe('the local check-in page (http://127.0.0.1:<port>/checkin/, served by the local API)', () => {
    const saved = process.env.LOCAL_STACK;
    afterEach(() => {
      process.env.LOCAL_STACK = saved;
    });
    const localPage = () => `${api.url.replace(/\/v1$/, '')}/checkin/`;

    it('is a return URL on the local stack (LOCAL_STACK=true) only', async () => {
      // Prepare
      const studio = await createPayingStudio();
      // Act
      process.env.LOCAL_STACK = 'true';
      const local = await post(studio, paidBody(studio, { returnUrl: localPage() }));
      delete process.env.LOCAL_STACK;
      const deployed = await post(studio, paidBody(studio, { returnUrl: localPage() }));
      // Assess
      expect(local.status).toBe(200);
      expect(sessionOf(local.body.checkoutUrl).success_url.startsWith(`${localPage()}?`)).toBe(true);
      expectOriginRefused(deployed, new URL(localPage()).origin);
    });

    it('is refused when deployed for http://localhost at any port as well', async () => {
      const studio = await createPayingStudio();
      delete process.env.LOCAL_STACK;
      const answer = await post(studio, paidBody(studio, { returnUrl: 'http://localhost:3000/checkin/' }));
      expectOriginRefused(answer, 'http://localhost:3000');
    });
  });
});

describe('POST /group-shoot retryCheckout: the same rule for its returnUrl', () => {
  it('refuses a foreign origin and leaves the reservation as it was; takes an allowed one', async () => {
    // Prepare
    const studio = await createPayingStudio();
    const reserved = await post(studio, paidBody(studio));
    expectDone(await admin('tenant', 'allow-origin', '--slug', studio.slug, '--origin', STUDIO_ORIGIN));
    // Act
    const refused = await post(studio, {
      action: 'retryCheckout',
      retryToken: reserved.body.retryToken,
      returnUrl: 'https://evil.example.net/checkin',
    });
    const firstSession = sessionOf(reserved.body.checkoutUrl);
    const statusAfterRefusal = firstSession.status;
    const retried = await post(studio, {
      action: 'retryCheckout',
      retryToken: reserved.body.retryToken,
      returnUrl: `${STUDIO_ORIGIN}/again`,
    });
    // Assess
    expectOriginRefused(refused, 'https://evil.example.net');
    expect(statusAfterRefusal).toBe('open');
    expect(retried.status).toBe(200);
    expect(sessionOf(retried.body.checkoutUrl).cancel_url).toMatch(
      new RegExp(`^${STUDIO_ORIGIN}/again\\?checkout=cancel&`),
    );
  });
});
