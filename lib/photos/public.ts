/**
 * The public face of photos: the modules of lib/photos/ that code outside it (other features,
 * the edge, other features' handlers, infra/ and scripts/) may import. Everything else in the folder
 * is the feature's own, and the boundary check (.dependency-cruiser.cjs) fails on an import of it
 * from outside. Tests may reach any module (docs/architecture.md#boundaries).
 */
export const PUBLIC_MODULES = [
  'access/participant-photos',
  'access/photo-schemas',
  'access/photos-by-link',
  'access/pick-photo',
  'access/rules/portrait-photo',
  'cards/adapters/camera-card-pdf',
  'cards/rules/camera-card-layout',
  'common/rules/capture-facts',
  'common/rules/capture-time',
  'common/rules/photo-limits',
  'common/rules/photo-model',
  'common/store/photos',
  'links/photo-links',
  'links/unsubscribe-links',
  'notices/adapters/email-sender',
  'notices/participant-emails',
  'notices/rules/email-messages',
  'notices/rules/photo-notice',
  'sorting/adapters/shoot-photo-reader',
  'sorting/adapters/shoot-thumbnails',
  'sorting/erase-shoot-photos',
  'sorting/erase-whole-shoot',
  'sorting/forget-face-candidates',
  'sorting/ingest-photo',
  'sorting/place-shoot-photo',
  'sorting/shoot-index-backfill',
  'sorting/shoot-review',
  'sorting/store/shoot-photos',
  'uploads/rules/inbox',
  'uploads/upload-schemas',
] as const;
