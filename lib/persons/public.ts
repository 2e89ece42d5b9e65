/**
 * The public face of persons: the modules of lib/persons/ that code outside it (other features,
 * the edge, other features' handlers, infra/ and scripts/) may import. Everything else in the folder
 * is the feature's own, and the boundary check (.dependency-cruiser.cjs) fails on an import of it
 * from outside. Tests may reach any module (docs/architecture.md#boundaries).
 */
export const PUBLIC_MODULES = [
  'import-persons',
  'list-persons',
  'person-schemas',
  'rules/access-codes',
  'rules/imported-completion',
  'rules/person-import',
  'rules/person-limits',
  'rules/person-model',
  'rules/photo-notice-state',
  'store/access-code-allocation',
  'store/address-index-backfill',
  'store/guest-list',
  'store/imported-completion',
  'store/person-erasure',
  'store/person-lookups',
  'store/person-marks',
  'store/person-records',
  'store/persons',
  'store/photo-notice-marks',
] as const;
