/**
 * The public face of galleries: the modules of lib/galleries/ that code outside it (other features,
 * the edge, other features' handlers, infra/ and scripts/) may import. Everything else in the folder
 * is the feature's own, and the boundary check (.dependency-cruiser.cjs) fails on an import of it
 * from outside. Tests may reach any module (docs/architecture.md#boundaries).
 */
export const PUBLIC_MODULES = [
  'gallery-schemas',
  'get-gallery-stats',
  'group-shoot-gallery',
  'rules/checkin-policy',
  'rules/custom-fields',
  'rules/face-matching',
  'rules/gallery-model',
  'rules/gallery-views',
  'rules/page-settings',
  'rules/public-limits',
  'rules/retention-policy',
  'rules/spot-counters',
  'store/day-bookings',
  'store/face-matching-check',
  'store/galleries',
  'store/gallery-counters',
  'store/gallery-pointers',
] as const;
