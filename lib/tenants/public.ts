/**
 * The public face of tenants: the modules of lib/tenants/ that code outside it (other features,
 * the edge, other features' handlers, infra/ and scripts/) may import. Everything else in the folder
 * is the feature's own, and the boundary check (.dependency-cruiser.cjs) fails on an import of it
 * from outside. Tests may reach any module (docs/architecture.md#boundaries).
 */
export const PUBLIC_MODULES = [
  'adapters/logo-image',
  'rules/api-key-secret',
  'rules/accent-color',
  'rules/branding',
  'rules/plans',
  'rules/tenant-share',
  'rules/tenant-slug',
  'store/api-keys',
  'store/tenant-directory',
  'store/tenants',
] as const;
