import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { imageSize } from 'image-size';
import { NotFoundError, UsageError } from '../cli-kit/cli-errors';
import { formatTable } from '../cli-kit/output';
import { findGallery } from '../cli-kit/lookups';
import { type OptionValues, optionalText, optionalWholeNumber, requiredText } from '../cli-kit/options';
import type { CommandHandlers } from './command-types';
import { getPerson } from '#lib/persons/store/persons';
import { listPhotos } from '#lib/photos/common/store/photos';
import { isValidPhotoFileName, photoObjectKey } from '#lib/platform/media-keys';
import {
  type HandOutcome,
  type ReviewedShootPhoto,
  assignShootPhotoByHand,
  backfillReviewQueue,
  dismissShootPhoto,
  listPhotosForReview,
  releaseWithheldPhoto,
} from '#lib/photos/sorting/shoot-review';
import { captureFactsOf, exifBlockOfJpeg } from '#lib/photos/common/rules/capture-facts';
import { pickPhoto } from '#lib/photos/access/pick-photo';
import { DomainError } from '#lib/platform/domain-error';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';

const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};

/** A page of the review queue: `--limit` (50 unless given) photos after `--after`, the cursor the page before printed. */
function pageOf(values: OptionValues): { limit: number; after?: string } {
  // A cursor holds a photo's shoot key and queue place: a file path may make it long.
  const after = optionalText(values, 'after', 4000);
  return { limit: optionalWholeNumber(values, 'limit', 0) ?? 50, ...(after ? { after } : {}) };
}

/** The gallery and the person `--person` names in it, or a not-found error. */
async function findPerson(values: OptionValues) {
  const personId = requiredText(values, 'person', 40);
  const { tenant, configuration } = await findGallery(values);
  const scope = { tenantId: tenant.tenantId, token: configuration.gallery.token };
  const person = await getPerson(scope, personId);
  if (!person) throw new NotFoundError(`Gallery ${scope.token} has no person "${personId}"`);
  return { scope, person };
}

const reasonText = (reason: string | undefined) => reason?.replaceAll('_', ' ') ?? '';

/** A photo's review line: what it is, why it waits, which card governs it, and whose faces it resembles (distance). */
function reviewRow(photo: ReviewedShootPhoto): string[] {
  return [
    photo.photoId,
    photo.path,
    photo.camera ?? '?',
    photo.capturedAt ?? '?',
    reasonText(photo.reason),
    photo.card ? `${photo.card.code ?? 'several codes'} (${photo.card.personId ?? 'nobody'})` : '-',
    photo.candidates.map((candidate) => `${candidate.personId} ${candidate.distance.toFixed(2)}`).join(', ') || '-',
  ];
}

const REVIEW_HEADINGS = ['PHOTO', 'PATH', 'CAMERA', 'CAPTURED', 'REASON', 'CARD', 'FACES (DISTANCE)'];

/** The errors of a hand's outcome other than success. */
function refuseHandOutcome(outcome: HandOutcome, photoId: string, token: string, personId?: string): void {
  if (outcome === 'unknown_photo') throw new NotFoundError(`The shoot of ${token} has no photo "${photoId}"`);
  if (outcome === 'card') throw new UsageError(`${photoId} is a camera card: cards are not delivered`);
  if (outcome === 'unknown_person') throw new NotFoundError(`Gallery ${token} has no person "${personId}"`);
  if (outcome === 'not_withheld')
    throw new UsageError(
      `${photoId} is not withheld: only a photo withheld by the faces has a card's person to release it to (photo assign gives any photo to anyone)`,
    );
}

/** A hand's decision on the shoot photo of `--photo` that needs no person (release, dismiss), refused as the CLI refuses it. */
async function decideOnShootPhoto(
  values: OptionValues,
  decide: (scope: GalleryScope, photoId: string) => Promise<HandOutcome>,
): Promise<{ photoId: string; outcome: HandOutcome }> {
  const photoId = requiredText(values, 'photo', 40);
  const { tenant, configuration } = await findGallery(values);
  const scope = { tenantId: tenant.tenantId, token: configuration.gallery.token };
  const outcome = await decide(scope, photoId);
  refuseHandOutcome(outcome, photoId, scope.token);
  return { photoId, outcome };
}

/**
 * `photo add|list|pick|review|unassigned|release|assign|dismiss`. `add` uploads under the person's photo prefix with the image's size
 * and (from a JPEG's EXIF) its capture time as metadata, then records it as the S3 ingest function would; where that function runs (AWS,
 * or `npm start`), its event finds the photo recorded already and changes nothing.
 */
export const photoCommands: CommandHandlers = {
  async add(values) {
    const path = requiredText(values, 'file', 4096);
    const fileName = (values.name as string | undefined) ?? basename(path);
    if (!isValidPhotoFileName(fileName)) {
      throw new UsageError(
        `--name "${fileName}": use letters, digits, spaces, dots, dashes and underscores (at most 255)`,
      );
    }
    const contentType = CONTENT_TYPES[fileName.split('.').pop()?.toLowerCase() ?? ''];
    if (!contentType) throw new UsageError(`--name "${fileName}": a photo is a .jpg, .jpeg, .png or .webp file`);
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch {
      throw new UsageError(`--file ${path}: cannot read it`);
    }
    let size: { width?: number; height?: number };
    try {
      size = imageSize(bytes);
    } catch {
      throw new UsageError(`--file ${path}: not an image`);
    }
    const { scope, person } = await findPerson(values);
    const objectKey = photoObjectKey({ ...scope, personId: person.personId, fileName });
    // The bucket is read by `photo add` alone, so that the other photo commands need no MEDIA_BUCKET.
    const [{ putMediaObject }, { ingestPhotoObject }] = await Promise.all([
      import('#lib/platform/media-bucket'),
      import('#lib/photos/sorting/ingest-photo'),
    ]);
    const capturedAt = captureFactsOf(exifBlockOfJpeg(bytes)).capturedAt;
    const metadata = {
      width: String(size.width),
      height: String(size.height),
      ...(capturedAt ? { 'captured-at': capturedAt } : {}),
    };
    const versionId = await putMediaObject(objectKey, bytes, contentType, metadata);
    const outcome = await ingestPhotoObject({ objectKey, versionId, uploadedAt: new Date().toISOString() });
    return {
      data: { objectKey, outcome, width: size.width, height: size.height },
      lines: [
        `Uploaded ${fileName} (${size.width}×${size.height}) for ${person.personId}: ${outcome.replace('_', ' ')}`,
      ],
    };
  },

  async list(values) {
    const { scope, person } = await findPerson(values);
    const photos = await listPhotos(scope, person.personId);
    return {
      data: photos,
      lines: [
        `${photos.length} photo(s) of ${person.personId}`,
        ...formatTable(
          ['PHOTO', 'FILE', 'SIZE', 'CAPTURED', 'CREATED'],
          photos.map((photo) => [
            photo.photoId,
            photo.fileName,
            `${photo.width ?? '?'}×${photo.height ?? '?'}`,
            photo.capturedAt ?? '?',
            photo.createdAt,
          ]),
        ),
      ],
    };
  },

  async pick(values) {
    const photoId = requiredText(values, 'photo', 64);
    const { scope, person } = await findPerson(values);
    try {
      await pickPhoto(scope, person.personId, photoId, 'photographer');
    } catch (error) {
      if (error instanceof DomainError && error.reason === 'unknown_photo')
        throw new NotFoundError(`${person.personId} has no photo "${photoId}" in gallery ${scope.token}`);
      throw error;
    }
    return {
      data: { personId: person.personId, photoId, pickedBy: 'photographer' },
      lines: [
        `Picked ${photoId} as the portrait of ${person.personId}; a later pick by the participant or the studio replaces it`,
      ],
    };
  },

  async review(values) {
    const { tenant, configuration } = await findGallery(values);
    const page = await listPhotosForReview(
      { tenantId: tenant.tenantId, token: configuration.gallery.token },
      pageOf(values),
    );
    return {
      data: page,
      lines: [
        `${page.counts.withheld + page.counts.unassigned} photo(s) to review in the shoot of ${configuration.gallery.token}: ${page.counts.withheld} withheld, ${page.counts.unassigned} unassigned; ${page.photos.length} on this page`,
        ...formatTable(REVIEW_HEADINGS, page.photos.map(reviewRow)),
        ...(page.next ? [`More: --after ${page.next}`] : []),
      ],
    };
  },

  async unassigned(values) {
    const { tenant, configuration } = await findGallery(values);
    const page = await listPhotosForReview(
      { tenantId: tenant.tenantId, token: configuration.gallery.token },
      pageOf(values),
    );
    const photos = page.photos.filter((photo) => photo.heldFor === null);
    return {
      data: { ...page, photos },
      lines: [
        `${page.counts.unassigned} unassigned photo(s) in the shoot of ${configuration.gallery.token}; ${photos.length} on this page`,
        ...formatTable(REVIEW_HEADINGS, photos.map(reviewRow)),
        ...(page.next ? [`More: --after ${page.next}`] : []),
      ],
    };
  },

  /** Puts a shoot sorted before the review queue's index into it (docs/admin-cli.md#review-queue-backfill). */
  async 'review-backfill'(values) {
    const { tenant, configuration } = await findGallery(values);
    const done = await backfillReviewQueue({ tenantId: tenant.tenantId, token: configuration.gallery.token });
    return {
      data: done,
      lines: [
        `${done.indexed} photo(s) put in the review queue's index of ${configuration.gallery.token}; ${done.dismissed} dismissed photo(s) counted`,
      ],
    };
  },

  async release(values) {
    const { photoId, outcome } = await decideOnShootPhoto(values, releaseWithheldPhoto);
    return {
      data: { photoId, outcome },
      lines: [`Released ${photoId} to the person its card names; later cards leave it there`],
    };
  },

  async assign(values) {
    const photoId = requiredText(values, 'photo', 40);
    const { scope, person } = await findPerson(values);
    const outcome = await assignShootPhotoByHand(scope, photoId, person.personId);
    refuseHandOutcome(outcome, photoId, scope.token, person.personId);
    return {
      data: { photoId, personId: person.personId },
      lines: [`Assigned ${photoId} to ${person.personId}; later cards and faces leave it there`],
    };
  },

  async dismiss(values) {
    const { photoId, outcome } = await decideOnShootPhoto(values, dismissShootPhoto);
    return {
      data: { photoId, outcome },
      lines: [
        `Dismissed ${photoId} as nobody's: it leaves the review; later cards and faces leave it there, photo assign still gives it to someone`,
      ],
    };
  },
};
