import { getMediaObject } from '#lib/platform/media-bucket';
import { photoIdOf } from '#lib/platform/media-keys';
import { nowIso } from '#lib/platform/clock';
import type { FaceMatchingSettings } from '#lib/galleries/rules/face-matching';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { type DetectedFace, type FaceBox, mainFace } from '#lib/faces/rules/face-descriptors';
import {
  type CardVerdict,
  type FaceCandidate,
  evidenceOfCardPhoto,
  fillInFor,
  nearestCandidates,
  rejectsReference,
  verdictOnCard,
} from '#lib/faces/rules/second-opinion';
import {
  type ReferenceFace,
  confirmReferenceFace,
  getReferenceFace,
  recordContradiction,
  rejectReferenceFace,
} from '#lib/faces/store/reference-faces';
import { confirmedReferenceFaces } from '#lib/faces/confirmed-reference-faces';

/** Loaded only when a photo is compared: galleries without face matching never load the model. */
const faceModel = () => import('#lib/faces/adapters/face-model');

/** What the faces say about a photo a card gives to a person. */
export type OpinionOnCard = CardVerdict & { candidates: FaceCandidate[] };

/** What the faces say about a photo no card gives to anyone: the person it is filled in for, if any. */
export interface OpinionWithoutCard {
  fillFor?: FaceCandidate;
  /** Where the face it is filled in for is (the main face), for the portrait crop. */
  fillFace?: FaceBox;
  candidates: FaceCandidate[];
}

/** What a placement asks the faces: its photo's opinion, and one for each photo a card it places takes over. */
export interface PlacementOpinions {
  opinion: FaceOpinion;
  opinionOf: (objectKey: string) => FaceOpinion;
}

/**
 * The opinions a placement of `photo` asks; undefined where the gallery's face matching is off
 * (the card alone decides). `referenceFacesGeneration`, the statistics' counter as read with the
 * configuration, lets them share the instance's copy of the confirmed faces (confirmed-reference-faces.ts).
 */
export function placementOpinions(
  scope: GalleryScope,
  settings: FaceMatchingSettings,
  photo: { objectKey: string; bytes?: Uint8Array },
  referenceFacesGeneration?: number,
): PlacementOpinions | undefined {
  if (settings.mode === 'off') return undefined;
  return {
    opinion: new FaceOpinion(scope, settings, photo, referenceFacesGeneration),
    opinionOf: (objectKey) => new FaceOpinion(scope, settings, { objectKey }, referenceFacesGeneration),
  };
}

/**
 * The second opinion on one shoot photo, asked while it is placed. The photo's faces are
 * described at most once, and only when there is something to compare them with; they live in
 * this object only (a non-consenting person's descriptor is never stored) and are gone with it.
 */
export class FaceOpinion {
  private faces?: Promise<DetectedFace[]>;
  private references?: Promise<ReferenceFace[]>;

  constructor(
    private readonly scope: GalleryScope,
    private readonly settings: FaceMatchingSettings,
    private readonly photo: { objectKey: string; bytes?: Uint8Array },
    /** The gallery's reference-face generation as read with its configuration; none: the faces are read anew. */
    private readonly referenceFacesGeneration?: number,
  ) {}

  /**
   * The opinion on the photo, which the card of `personId` governs. Undefined when the faces have
   * no say: matching is off, the card's person has no reference face, or it is unconfirmed and
   * this photo does not confirm it. An unconfirmed face is judged as evidence instead
   * (docs/photos.md#whose-face-the-selfie-shows): a photo whose main face is the reference's
   * confirms it (and is delivered with that face's box); one that contradicts it is recorded,
   * and rejects it when the first photos after the card (`firstPhotosAfterCard`, photo IDs in
   * capture order) all did. Either way the card alone decides such a photo.
   */
  async onCard(personId: string, firstPhotosAfterCard?: () => Promise<string[]>): Promise<OpinionOnCard | undefined> {
    if (this.settings.mode === 'off') return undefined;
    const reference = await getReferenceFace(this.scope, personId);
    if (!reference) return undefined;
    const faces = await this.photoFaces();
    if (!reference.confirmed) return this.judgeUnconfirmed(reference, faces, firstPhotosAfterCard);
    const verdict = verdictOnCard(faces, reference, this.settings.thresholds);
    return {
      ...verdict,
      candidates: verdict.kind === 'withhold' ? nearestCandidates(faces, await this.confirmedReferences()) : [],
    };
  }

  private async judgeUnconfirmed(
    reference: ReferenceFace,
    faces: DetectedFace[],
    firstPhotosAfterCard: (() => Promise<string[]>) | undefined,
  ): Promise<OpinionOnCard | undefined> {
    const photoId = photoIdOf(this.photo.objectKey);
    const evidence = evidenceOfCardPhoto(faces, reference, this.settings.thresholds);
    if (evidence.kind === 'confirms') {
      if (!(await confirmReferenceFace(this.scope, reference.personId, photoId, nowIso()))) return undefined;
      return { kind: 'agree', distance: evidence.distance, face: evidence.face, candidates: [] };
    }
    if (evidence.kind === 'contradicts' && firstPhotosAfterCard) {
      // Recorded first, read after: of two photos judged at once, the later read sees both.
      const contradictedBy = await recordContradiction(this.scope, reference.personId, photoId);
      if (contradictedBy && rejectsReference(await firstPhotosAfterCard(), contradictedBy))
        await rejectReferenceFace(this.scope, reference.personId, contradictedBy, nowIso());
    }
    return undefined;
  }

  /** Undefined unless the gallery fills in and has confirmed reference faces to fill in from. */
  async withoutCard(): Promise<OpinionWithoutCard | undefined> {
    if (this.settings.mode !== 'fill') return undefined;
    const references = await this.confirmedReferences();
    if (references.length === 0) return undefined;
    const faces = await this.photoFaces();
    const candidates = nearestCandidates(faces, references);
    const fillFor = fillInFor(candidates, this.settings.thresholds);
    return { fillFor, ...(fillFor ? { fillFace: mainFace(faces)?.box } : {}), candidates };
  }

  private photoFaces(): Promise<DetectedFace[]> {
    this.faces ??= (async () => {
      const bytes = this.photo.bytes ?? (await getMediaObject(this.photo.objectKey)).bytes;
      return (await faceModel()).describeFaces(Buffer.from(bytes));
    })();
    return this.faces;
  }

  /** The references that fill in and are named as candidates: confirmed ones only, the others being only a selfie's word. */
  private confirmedReferences(): Promise<ReferenceFace[]> {
    this.references ??= confirmedReferenceFaces(this.scope, this.referenceFacesGeneration);
    return this.references;
  }
}
