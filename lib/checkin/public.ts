/**
 * The public face of checkin: the modules of lib/checkin/ that code outside it (other features,
 * the edge, other features' handlers, infra/ and scripts/) may import. Everything else in the folder
 * is the feature's own, and the boundary check (.dependency-cruiser.cjs) fails on an import of it
 * from outside. Tests may reach any module (docs/architecture.md#boundaries).
 */
export const PUBLIC_MODULES = [
  'checkin-schemas',
  'invitations',
  'rules/checkin-limits',
  'store/email-checkins',
  'submit-checkin',
] as const;
