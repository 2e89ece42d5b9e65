/**
 * The public face of faces: the modules of lib/faces/ that code outside it (other features,
 * the edge, other features' handlers, infra/ and scripts/) may import. Everything else in the folder
 * is the feature's own, and the boundary check (.dependency-cruiser.cjs) fails on an import of it
 * from outside. Tests may reach any module (docs/architecture.md#boundaries).
 */
export const PUBLIC_MODULES = [
  'adapters/face-model',
  'calibration',
  'face-matching-switch',
  'reference-faces',
  'rules/calibration',
  'rules/face-descriptors',
  'rules/second-opinion',
  'second-opinion',
  'store/reference-faces',
] as const;
