import { getGalleryConfiguration } from '#lib/galleries/store/galleries';
import { admin } from '../support/admin';
import { type TestTenant, createTestTenant } from '../support/factories';
import { useTestTable } from '../support/test-table';

useTestTable();

const policy = (studio: TestTenant, ...options: string[]) => admin('gallery', 'checkin-policy', '--tenant', studio.slug, '--gallery', studio.token, ...options);
const storedPolicy = async (studio: TestTenant) => (await getGalleryConfiguration(studio.tenant.tenantId, studio.token))?.gallery.checkinPolicy;

describe('gallery checkin-policy (admin CLI)', () => {
  it('shows an open gallery with any domain where none is set', async () => {
    const studio = await createTestTenant();
    const run = await policy(studio, '--json');
    expect([run.code, run.json()]).toEqual([0, { mode: 'open', allowedEmailDomains: [] }]);
  });

  it('sets the mode and the domains (stored in lower case, once each), and keeps what it is not given', async () => {
    // Prepare
    const studio = await createTestTenant();
    // Act
    const first = await policy(studio, '--mode', 'importedOnly', '--domains', 'Example.com, *.example.org,example.com');
    const second = await policy(studio, '--domains', 'example.net');
    // Assess
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/mode\s+importedOnly/);
    expect(first.out).toMatch(/email domains\s+example\.com, \*\.example\.org/);
    expect(second.code).toBe(0);
    expect(await storedPolicy(studio)).toEqual({ mode: 'importedOnly', allowedEmailDomains: ['example.net'] });
  });

  it('drops the domain rule with --any-domain and opens the gallery with --mode open', async () => {
    const studio = await createTestTenant();
    await policy(studio, '--mode', 'importedOnly', '--domains', 'example.com');
    const run = await policy(studio, '--mode', 'open', '--any-domain', '--json');
    expect(run.json()).toEqual({ mode: 'open', allowedEmailDomains: [] });
    expect(await storedPolicy(studio)).toEqual({ mode: 'open', allowedEmailDomains: [] });
  });

  it.each([
    [['--mode', 'invited'], /--mode/],
    [['--domains', 'example'], /"example" is not a domain/],
    [['--domains', 'ada@example.com'], /is not a domain/],
    [['--domains', '*.com'], /is not a domain/],
    [['--domains', ','], /at least one domain/],
    [['--domains', Array.from({ length: 21 }, (_, index) => `d${index}.example`).join(',')], /at most 20/],
    [['--domains', 'example.com', '--any-domain'], /either --domains or --any-domain/],
  ])('refuses %j as a usage error, changing nothing', async (options, message) => {
    const studio = await createTestTenant();
    const run = await policy(studio, ...options);
    expect([run.code, run.err.join('\n')]).toEqual([2, expect.stringMatching(message)]);
    expect(await storedPolicy(studio)).toBeUndefined();
  });
});
