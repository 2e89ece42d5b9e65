import { getMediaObject } from '#lib/platform/media-bucket';
import type { FaceMatchingSettings } from '#lib/galleries/rules/face-matching';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { type DetectedFace, type FaceBox, mainFace } from '#lib/faces/rules/face-descriptors';
import {
  type CardVerdict,
  type FaceCandidate,
  fillInFor,
  nearestCandidates,
  verdictOnCard,
} from '#lib/faces/rules/second-opinion';
import { type ReferenceFace, getReferenceFace, listReferenceFaces } from '#lib/faces/store/reference-faces';

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

/** The opinions a placement of `photo` asks; undefined where the gallery's face matching is off (the card alone decides). */
export function placementOpinions(
  scope: GalleryScope,
  settings: FaceMatchingSettings,
  photo: { objectKey: string; bytes?: Uint8Array },
): PlacementOpinions | undefined {
  if (settings.mode === 'off') return undefined;
  return {
    opinion: new FaceOpinion(scope, settings, photo),
    opinionOf: (objectKey) => new FaceOpinion(scope, settings, { objectKey }),
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
  ) {}

  /** Undefined when the faces have no say: matching is off, or the card's person has no reference face. */
  async onCard(personId: string): Promise<OpinionOnCard | undefined> {
    if (this.settings.mode === 'off') return undefined;
    const reference = await getReferenceFace(this.scope, personId);
    if (!reference) return undefined;
    const faces = await this.photoFaces();
    const verdict = verdictOnCard(faces, reference, this.settings.thresholds);
    return {
      ...verdict,
      candidates: verdict.kind === 'withhold' ? nearestCandidates(faces, await this.allReferences()) : [],
    };
  }

  /** Undefined unless the gallery fills in and has reference faces to fill in from. */
  async withoutCard(): Promise<OpinionWithoutCard | undefined> {
    if (this.settings.mode !== 'fill') return undefined;
    const references = await this.allReferences();
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

  private allReferences(): Promise<ReferenceFace[]> {
    this.references ??= listReferenceFaces(this.scope);
    return this.references;
  }
}
