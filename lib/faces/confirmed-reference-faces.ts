import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { type ReferenceFace, listReferenceFaces } from '#lib/faces/store/reference-faces';

/**
 * The confirmed reference faces of a gallery, kept per warm instance
 * (docs/photos.md#reference-faces-in-memory): the fill-in and the candidates of a withheld photo
 * compare a photo's face with every one of them, and reading them all (512 bytes of descriptor
 * each) once per photo made a photo's cost grow with the gallery. A copy is good for as long as
 * the gallery's `referenceFacesGeneration` (a counter of the statistics item, which sorting reads
 * with the configuration) is the one it was read at: every write that changes the confirmed
 * faces moves it (lib/faces/store/reference-faces.ts). A copy holds about 1 KB per face (the
 * descriptor as numbers): about 10 MB for 10,000 confirmed faces, inherent to comparing a face
 * with every one.
 */

/** Galleries an instance keeps the faces of: sorting works on one or two galleries at a time. */
const GALLERIES_KEPT = 4;

const kept = new Map<string, { generation: number; faces: Promise<ReferenceFace[]> }>();

/**
 * The gallery's confirmed reference faces, read once per `generation` (the statistics' counter
 * as the caller read it); read every time when the caller has none.
 */
export function confirmedReferenceFaces(scope: GalleryScope, generation?: number): Promise<ReferenceFace[]> {
  if (generation === undefined) return readConfirmed(scope);
  const gallery = `${scope.tenantId}#${scope.token}`;
  const copy = kept.get(gallery);
  if (copy && copy.generation === generation) {
    // Used again: the last to go.
    kept.delete(gallery);
    kept.set(gallery, copy);
    return copy.faces;
  }
  const faces = readConfirmed(scope);
  kept.delete(gallery);
  kept.set(gallery, { generation, faces });
  if (kept.size > GALLERIES_KEPT) kept.delete(kept.keys().next().value!);
  // A failed read is not kept: the next photo reads again.
  faces.catch(() => kept.get(gallery)?.faces === faces && kept.delete(gallery));
  return faces;
}

function readConfirmed(scope: GalleryScope): Promise<ReferenceFace[]> {
  return listReferenceFaces(scope).then((faces) => faces.filter((face) => face.confirmed));
}
