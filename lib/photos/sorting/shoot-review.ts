import { nowIso } from '#lib/platform/clock';
import { getPerson } from '#lib/persons/store/persons';
import type { FaceCandidate } from '#lib/faces/rules/second-opinion';
import { applyGovernor } from '#lib/photos/sorting/assign-shoot-photo';
import { type Key, type ShootPhoto, findShootItemOfPhoto } from '#lib/photos/sorting/store/shoot-photos';
import {
  governingCards,
  indexPhotoForReview,
  reviewQueuePage,
  reviewQueueStartKey,
} from '#lib/photos/sorting/store/review-queue';
import { isDismissed, reviewQueuePlace } from '#lib/photos/sorting/rules/review-queue';
import { forEachShootPage } from '#lib/photos/sorting/store/shoot-pages';
import { getGalleryConfiguration } from '#lib/galleries/store/galleries';
import { setGalleryCounter } from '#lib/galleries/store/gallery-counters';
import { DomainError } from '#lib/platform/domain-error';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { isCardGovernor, manualGovernor } from '#lib/photos/sorting/rules/shoot-sequence';

/**
 * The photographer's review of a sorted shoot (npm run admin -- photo review|release|assign|dismiss):
 * the photos withheld by the faces and those that belong to nobody, releasing a withheld photo
 * to its card's person, assigning a photo by hand, and dismissing one as nobody's; no card
 * changes a hand's decision afterwards.
 */

export interface ReviewedShootPhoto extends Pick<ShootPhoto, 'photoId' | 'path' | 'camera' | 'capturedAt' | 'reason'> {
  /** The person its card names, whom a withheld photo waits for. */
  heldFor: string | null;
  /** The card that governs it: its photo ID and path, the code it showed, and whose code that is (null: nobody's, or erased since). */
  card: { photoId: string; path: string; code: string | null; personId: string | null } | null;
  /** The consenting persons its main face resembles most, nearest first (IDs and distances, never a descriptor). */
  candidates: FaceCandidate[];
}

/** A page of the review queue, with the whole queue's counts. */
export interface ReviewPage {
  photos: ReviewedShootPhoto[];
  /** The whole queue's photos, from the statistics: withheld, and unassigned (not dismissed). */
  counts: { withheld: number; unassigned: number };
  /** Where the next page starts (`after`); null on the last page. */
  next: string | null;
}

/** Shoot items the review queue's backfill reads at a time. */
const BACKFILL_PAGE_SIZE = 100;

/** The most photos one page of the review queue holds. */
export const MAX_REVIEW_PAGE = 200;

/**
 * A page of the shoot's photos that wait for a review (withheld, or belonging to nobody and not
 * dismissed), by camera, capture time and path, after the cursor `after` of the page before:
 * one Query of the review queue's index, one BatchGet of the cards that govern the page, and
 * the counts from the statistics, whatever the queue's length. `limit` 0 gives the counts alone.
 */
export async function listPhotosForReview(
  scope: GalleryScope,
  { limit = 50, after }: { limit?: number; after?: string } = {},
): Promise<ReviewPage> {
  if (!Number.isInteger(limit) || limit < 0 || limit > MAX_REVIEW_PAGE)
    throw new DomainError('invalid_parameter', `The page size is a whole number from 0 to ${MAX_REVIEW_PAGE}`, {
      parameter: 'limit',
    });
  const [configuration, page] = await Promise.all([
    getGalleryConfiguration(scope.tenantId, scope.token),
    limit === 0 ? undefined : reviewQueuePage(scope, limit, after === undefined ? undefined : startKeyOf(scope, after)),
  ]);
  const { photosWithheld, photosUnassigned, photosDismissed } = configuration?.counters ?? {};
  const counts = {
    withheld: Math.max(0, photosWithheld ?? 0),
    unassigned: Math.max(0, (photosUnassigned ?? 0) - (photosDismissed ?? 0)),
  };
  if (!page) return { photos: [], counts, next: null };
  const cards = await governingCards(scope, page.photos, isCardGovernor);
  const last = page.photos.at(-1);
  return {
    photos: page.photos.map((photo) => {
      const card = photo.governor ? cards.get(photo.governor) : undefined;
      return {
        photoId: photo.photoId,
        path: photo.path,
        camera: photo.camera,
        capturedAt: photo.capturedAt,
        reason: photo.reason,
        heldFor: photo.heldFor ?? null,
        card: card ? { photoId: card.photoId, path: card.path, code: card.code, personId: card.cardPersonId } : null,
        candidates: photo.candidates ?? [],
      };
    }),
    counts,
    next: page.nextKey && last ? cursorOf(last) : null,
  };
}

/** The cursor after a photo: its shoot key, opaque to the caller. */
function cursorOf(photo: ShootPhoto & Key): string {
  return Buffer.from(JSON.stringify([photo.sk, reviewQueuePlace(photo)])).toString('base64url');
}

function startKeyOf(scope: GalleryScope, cursor: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 2 || !parsed.every((part) => typeof part === 'string'))
    throw new DomainError('invalid_parameter', 'The cursor is not one this queue gave', { parameter: 'after' });
  const [sk, place] = parsed as [string, string];
  return reviewQueueStartKey(scope, sk, place);
}

/**
 * Puts shoots sorted before the review queue's index into it (a backfill, paged: npm run admin --
 * photo review-backfill): every photo that waits for review gets its entry, and the statistics'
 * count of dismissed photos is set to what the shoot holds. Safe to run again.
 */
export async function backfillReviewQueue(scope: GalleryScope): Promise<{ indexed: number; dismissed: number }> {
  const total = { indexed: 0, dismissed: 0 };
  await forEachShootPage(scope, BACKFILL_PAGE_SIZE, async (items) => {
    for (const item of items) {
      if (item.kind !== 'photo') continue;
      if (await indexPhotoForReview(scope, item)) total.indexed += 1;
      if (isDismissed(item)) total.dismissed += 1;
    }
  });
  await setGalleryCounter(scope, 'photosDismissed', total.dismissed);
  return total;
}

export type HandOutcome = 'assigned' | 'dismissed' | 'unknown_photo' | 'card' | 'unknown_person' | 'not_withheld';

/** Gives a shoot photo to a person by hand, over any card and any face; cards never take it back. */
export async function assignShootPhotoByHand(
  scope: GalleryScope,
  photoId: string,
  personId: string,
): Promise<HandOutcome> {
  const photo = await findShootPhoto(scope, photoId);
  if (photo === undefined || photo === 'card') return photo ?? 'unknown_photo';
  if (!(await getPerson(scope, personId))) return 'unknown_person';
  await applyGovernor(scope, { pk: photo.pk, sk: photo.sk }, { position: manualGovernor(nowIso()) }, { personId });
  return 'assigned';
}

/** Delivers a withheld photo to the person its card names, as a hand would: the photographer saw it is theirs. */
export async function releaseWithheldPhoto(scope: GalleryScope, photoId: string): Promise<HandOutcome> {
  const photo = await findShootPhoto(scope, photoId);
  if (photo === undefined || photo === 'card') return photo ?? 'unknown_photo';
  if (!photo.heldFor) return 'not_withheld';
  return assignShootPhotoByHand(scope, photoId, photo.heldFor);
}

/**
 * Decides by hand that a shoot photo is nobody's: taken from whoever has it (withheld or
 * assigned alike), it leaves the review queue, stays among the unassigned photos of the
 * statistics, and no later card or face gives it to anyone; a later assignment by hand still may.
 */
export async function dismissShootPhoto(scope: GalleryScope, photoId: string): Promise<HandOutcome> {
  const photo = await findShootPhoto(scope, photoId);
  if (photo === undefined || photo === 'card') return photo ?? 'unknown_photo';
  await applyGovernor(
    scope,
    { pk: photo.pk, sk: photo.sk },
    { position: manualGovernor(nowIso()) },
    { reason: 'dismissed' },
  );
  return 'dismissed';
}

/** The shoot photo with this ID, by its pointer (two GetItems, whatever the shoot's size); 'card' for a camera card. */
async function findShootPhoto(scope: GalleryScope, photoId: string): Promise<(ShootPhoto & Key) | 'card' | undefined> {
  const item = await findShootItemOfPhoto(scope, photoId);
  if (!item) return undefined;
  return item.kind === 'photo' ? item : 'card';
}
