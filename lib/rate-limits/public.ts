/**
 * The public face of rate-limits: the modules of lib/rate-limits/ that code outside it (other features,
 * the edge, other features' handlers, infra/ and scripts/) may import. Everything else in the folder
 * is the feature's own, and the boundary check (.dependency-cruiser.cjs) fails on an import of it
 * from outside. Tests may reach any module (docs/architecture.md#boundaries).
 */
export const PUBLIC_MODULES = ['rules/client-address', 'rules/rate-limit', 'store/rate-limit-counters'] as const;
