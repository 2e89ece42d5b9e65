import { normalizeTenantSlug } from '#lib/tenants/rules/tenant-slug';

describe('normalizeTenantSlug', () => {
  it.each([
    ['demo-studio', 'demo-studio'],
    ['Demo-Studio', 'demo-studio'],
    ['DEMO', 'demo'],
    ['  demo-studio\t', 'demo-studio'],
    ['a', 'a'],
    ['7', '7'],
    ['studio-42', 'studio-42'],
    ['42-studio', '42-studio'],
    ['xn--dj-kia8a', 'xn--dj-kia8a'],
    ['a'.repeat(63), 'a'.repeat(63)],
    [`a${'-'.repeat(61)}b`, `a${'-'.repeat(61)}b`],
  ])('takes %p as the slug %p', (presented, slug) => {
    expect(normalizeTenantSlug(presented)).toBe(slug);
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['a leading hyphen', '-demo'],
    ['a trailing hyphen', 'demo-'],
    ['a hyphen only', '-'],
    ['a space inside', 'demo studio'],
    ['an underscore', 'demo_studio'],
    ['a dot', 'demo.studio'],
    ['a slash', 'demo/studio'],
    ['an accented letter', 'déjà-vu'],
    ['64 characters', 'a'.repeat(64)],
  ])('refuses a slug with %s', (_case, presented) => {
    expect(normalizeTenantSlug(presented)).toBeUndefined();
  });
});
