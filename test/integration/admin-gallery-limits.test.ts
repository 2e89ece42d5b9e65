import { getGalleryConfiguration } from '#lib/galleries/store/galleries';
import { DEFAULT_PUBLIC_LIMITS } from '#lib/galleries/rules/public-limits';
import { admin } from '../support/admin';
import { createTestTenant } from '../support/factories';
import { useTestTable } from '../support/test-table';

useTestTable();

describe('gallery limits (admin CLI)', () => {
  it('shows the defaults of a gallery that sets none', async () => {
    const studio = await createTestTenant();
    const run = await admin('gallery', 'limits', '--tenant', studio.slug, '--gallery', studio.token, '--json');
    expect(run.code).toBe(0);
    expect(run.json()).toEqual(DEFAULT_PUBLIC_LIMITS);
  });

  it("sets the limits it is given, keeps the others, and says which are the gallery's own", async () => {
    // Prepare
    const studio = await createTestTenant();
    const limits = (...options: string[]) =>
      admin('gallery', 'limits', '--tenant', studio.slug, '--gallery', studio.token, ...options);
    // Act
    const first = await limits('--checkins', '600/1h', '--checkins-per-email', '1');
    const second = await limits(
      '--reads',
      '50/30s',
      '--pending-payments-percent',
      '40',
      '--retries-per-order',
      '0',
      '--photo-lookups',
      '10/1h',
      '--photo-lookup-failures',
      '20/24h',
      '--photo-lookup-failures-per-network',
      '3/1h',
      '--photo-lookup-failures-per-code',
      '2/24h',
    );
    // Assess
    expect(first.code).toBe(0);
    expect(second.out).toMatch(/check-ins per client\s+600 per hour/);
    expect(second.out).toMatch(/photo lookups per client\s+10 per hour\s+set for this gallery/);
    expect(second.out).toMatch(/wrong photo lookups per gallery\s+20 per 24 hours\s+set for this gallery/);
    expect(second.out).toMatch(/wrong photo lookups per client network\s+3 per hour\s+set for this gallery/);
    expect(second.out).toMatch(/wrong photo lookups per access code\s+2 per 24 hours\s+set for this gallery/);
    expect(second.out).toMatch(/reads per client\s+50 per 30 seconds\s+set for this gallery/);
    expect(second.out).toMatch(/free check-ins per email\s+1\s+set for this gallery/);
    expect((await getGalleryConfiguration(studio.tenant.tenantId, studio.token))?.gallery.publicLimits).toEqual({
      checkins: { limit: 600, windowMs: 3_600_000 },
      checkinsPerEmail: 1,
      reads: { limit: 50, windowMs: 30_000 },
      pendingPaymentsShare: 0.4,
      retriesPerOrder: 0,
      photoLookups: { limit: 10, windowMs: 3_600_000 },
      photoLookupFailures: { limit: 20, windowMs: 86_400_000 },
      photoLookupFailuresPerSite: { limit: 3, windowMs: 3_600_000 },
      photoLookupFailuresPerCode: { limit: 2, windowMs: 86_400_000 },
    });
  });

  it('goes back to the defaults with --defaults', async () => {
    const studio = await createTestTenant();
    await admin('gallery', 'limits', '--tenant', studio.slug, '--gallery', studio.token, '--checkins', '5/1m');
    const run = await admin(
      'gallery',
      'limits',
      '--tenant',
      studio.slug,
      '--gallery',
      studio.token,
      '--defaults',
      '--json',
    );
    expect(run.json()).toEqual(DEFAULT_PUBLIC_LIMITS);
  });

  it.each([
    [['--checkins', '100'], /--checkins must be LIMIT\/WINDOW/],
    [['--reads', '0/1m'], /--reads must be LIMIT\/WINDOW/],
    [['--pending-payments-percent', '150'], /at most 100/],
    [['--checkins-per-email', '0'], /at least 1/],
    [['--defaults', '--reads', '5/1m'], /either --defaults or limits/],
  ])('refuses %j as a usage error, changing nothing', async (options, message) => {
    const studio = await createTestTenant();
    const run = await admin('gallery', 'limits', '--tenant', studio.slug, '--gallery', studio.token, ...options);
    expect([run.code, run.err.join('\n')]).toEqual([2, expect.stringMatching(message)]);
    expect((await getGalleryConfiguration(studio.tenant.tenantId, studio.token))?.gallery.publicLimits).toBeUndefined();
  });
});

describe('gallery photo-access (admin CLI)', () => {
  it('shows both ways by code off by default, turns each on and off on its own, and refuses other words', async () => {
    // Prepare
    const studio = await createTestTenant();
    const access = (...options: string[]) =>
      admin('gallery', 'photo-access', '--tenant', studio.slug, '--gallery', studio.token, ...options);
    // Act
    const shown = await access('--json');
    const emailOn = await access('--code-and-email', 'on');
    const bothSet = await access('--code-and-employee-id', 'on', '--code-and-email', 'off', '--json');
    const refused = await access('--code-and-email', 'yes');
    // Assess
    expect(shown.json()).toEqual({ codeAndEmail: false, codeAndEmployeeId: false });
    expect(emailOn.out).toMatch(/access code and email\s+yes/);
    expect(emailOn.out).toMatch(/photo link by email\s+yes \(always\)/);
    expect(bothSet.json()).toEqual({ codeAndEmail: false, codeAndEmployeeId: true });
    expect((await getGalleryConfiguration(studio.tenant.tenantId, studio.token))?.gallery.photoAccess).toEqual({
      codeAndEmail: false,
      codeAndEmployeeId: true,
    });
    expect([refused.code, refused.err.join('\n')]).toEqual([
      2,
      expect.stringMatching(/--code-and-email "yes" is not valid/),
    ]);
  });
});
