import {
  API_KEY_PREFIX,
  displayPrefixOf,
  generateApiKeySecret,
  hasApiKeyShape,
  hashApiKey,
} from '#lib/tenants/rules/api-key-secret';
import { integrationEligibility } from '#lib/tenants/rules/plans';
import { randomBase62, randomToken } from '#lib/platform/secret-values';
import { normalizeTenantSlug } from '#lib/tenants/rules/tenant-slug';

describe('API key secrets', () => {
  it('have the recognisable prefix and 40 base62 characters', () => {
    const secret = generateApiKeySecret();
    expect(secret.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(secret).toMatch(/^gsk_[0-9A-Za-z]{40}$/);
    expect(hasApiKeyShape(secret)).toBe(true);
  });

  it('are different every time', () => {
    const secrets = new Set(Array.from({ length: 1000 }, generateApiKeySecret));
    expect(secrets.size).toBe(1000);
  });

  it.each([
    '',
    'gsk_',
    `gsk_${'a'.repeat(39)}`,
    `gsk_${'a'.repeat(41)}`,
    `sk_${'a'.repeat(40)}`,
    `gsk_${'-'.repeat(40)}`,
  ])('rejects the shape of %p', (value) => expect(hasApiKeyShape(value)).toBe(false));

  it('hash to 64 hex characters, the same for the same secret', () => {
    const secret = generateApiKeySecret();
    expect(hashApiKey(secret)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(secret)).toBe(hashApiKey(secret));
    expect(hashApiKey(secret)).not.toBe(hashApiKey(generateApiKeySecret()));
  });

  it('show only a short prefix once created', () => {
    const secret = generateApiKeySecret();
    expect(displayPrefixOf(secret)).toBe(`${secret.slice(0, 10)}…`);
  });
});

describe('random text', () => {
  it('uses every base62 character with roughly equal frequency', () => {
    const sample = randomBase62(62_000);
    const counts = new Map<string, number>();
    for (const char of sample) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    for (const count of counts.values()) expect(Math.abs(count - 1000)).toBeLessThan(200);
  });

  it('makes gallery tokens without look-alike characters', () => {
    const token = randomToken(2000);
    expect(token).toHaveLength(2000);
    expect(token).not.toMatch(/[01ilo]/);
  });
});

describe('tenant slugs', () => {
  it.each([
    ['demo-studio', 'demo-studio'],
    ['  Demo-Studio ', 'demo-studio'],
    ['a', 'a'],
    ['a'.repeat(63), 'a'.repeat(63)],
  ])('accept %p as %p', (presented, slug) => expect(normalizeTenantSlug(presented)).toBe(slug));

  it.each(['', '-demo', 'demo-', 'de mo', 'demo_studio', 'a'.repeat(64), 'déjà'])('refuse %p', (presented) =>
    expect(normalizeTenantSlug(presented)).toBeUndefined(),
  );
});

describe('plan eligibility for the integration API', () => {
  it.each([
    ['free', 'upgrade_required'],
    ['starter', 'upgrade_required'],
    ['creator', 'eligible'],
    ['pro', 'eligible'],
    ['studio', 'eligible'],
    ['gold', 'unverifiable'],
    [undefined, 'unverifiable'],
    [42, 'unverifiable'],
  ])('is %p → %p', (tier, eligibility) => expect(integrationEligibility(tier)).toBe(eligibility));
});
