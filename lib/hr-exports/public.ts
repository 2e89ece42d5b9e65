/**
 * The public face of hr-exports: the modules of lib/hr-exports/ that code outside it (other features,
 * the edge, other features' handlers, infra/ and scripts/) may import. Everything else in the folder
 * is the feature's own, and the boundary check (.dependency-cruiser.cjs) fails on an import of it
 * from outside. Tests may reach any module (docs/architecture.md#boundaries).
 */
export const PUBLIC_MODULES = [
  'adapters/hr-export-queue',
  'build-hr-export',
  'create-hr-export',
  'erase-hr-exports',
  'get-hr-export',
  'hr-export-schemas',
  'rules/hr-export-model',
] as const;
