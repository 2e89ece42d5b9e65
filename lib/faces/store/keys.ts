/**
 * Reference faces of a gallery.
 * Only this feature's stores build these keys (the boundary check holds it); docs/data-model.md
 * documents the access pattern each serves.
 */
export const faceKeys = {
  /**
   * Reference faces of a gallery: one item per consenting person with a face descriptor of their
   * selfie (lib/faces/), all in one collection, so the second opinion reads them in one query.
   */
  referenceFacesOfGallery: (tenantId: string, token: string) => `T#${tenantId}#G#${token}#FACES`,
  referenceFace: (tenantId: string, token: string, personId: string) => ({
    pk: `T#${tenantId}#G#${token}#FACES`,
    sk: `FACE#${personId}`,
  }),
} as const;
