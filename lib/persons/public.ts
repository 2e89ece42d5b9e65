import type { TableKeyName } from '#lib/platform/table/keys';

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
  'store/guest-list',
  'store/imported-completion',
  'store/person-erasure',
  'store/person-marks',
  'store/persons',
  'store/photo-notice-marks',
] as const;

/** The table items this feature owns: only its store builds their keys (the architecture test holds this). */
export const OWNED_KEYS = [
  'personsOfGallery',
  'person',
  'personsByEmployeeId',
  'importedPersonsByEmail',
  'accessCode',
] as const satisfies readonly TableKeyName[];
