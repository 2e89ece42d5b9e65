/**
 * The public face of privacy: the modules of lib/privacy/ that code outside it (other features,
 * the edge, other features' handlers, infra/ and scripts/) may import. Everything else in the folder
 * is the feature's own, and the boundary check (.dependency-cruiser.cjs) fails on an import of it
 * from outside. Tests may reach any module (docs/architecture.md#boundaries).
 */
export const PUBLIC_MODULES = [
  'adapters/retention-queues',
  'consent-schemas',
  'erasure',
  'face-consent',
  'face-consent-schemas',
  'face-matching',
  'participant-consents',
  'rules/consent-states',
  'rules/personal-data',
] as const;
