/**
 * A person's photos: one item collection per person.
 * Only photos' stores build these keys (the boundary check holds it); docs/data-model.md
 * documents the access pattern each serves.
 */
export const photoKeys = {
  photosOfPerson: (tenantId: string, token: string, personId: string) => `T#${tenantId}#G#${token}#PHOTOS#${personId}`,
  photo: (tenantId: string, token: string, personId: string, photoId: string) => ({
    pk: `T#${tenantId}#G#${token}#PHOTOS#${personId}`,
    sk: `PHOTO#${photoId}`,
  }),
} as const;
