/**
 * The public face of photos: the modules of lib/photos/ that code outside it (other features,
 * the edge, other features' handlers, infra/ and scripts/) may import. Everything else in the folder
 * is the feature's own, and the boundary check (.dependency-cruiser.cjs) fails on an import of it
 * from outside. Tests may reach any module (docs/architecture.md#boundaries).
 */
export const PUBLIC_MODULES = [
  'adapters/camera-card-pdf',
  'adapters/email-sender',
  'adapters/shoot-photo-reader',
  'erase-shoot-photos',
  'ingest-photo',
  'participant-photos',
  'photo-links',
  'photo-schemas',
  'pick-photo',
  'place-shoot-photo',
  'rules/camera-card-layout',
  'rules/capture-facts',
  'rules/email-messages',
  'rules/inbox-uploads',
  'rules/photo-limits',
  'rules/photo-model',
  'rules/photo-notice',
  'rules/portrait-photo',
  'shoot-review',
  'store/photos',
  'store/shoot-photos',
  'upload-schemas',
] as const;
