import { ownerOfCode } from '#lib/persons/store/persons';
import { nowIso } from '#lib/platform/clock';
import type { PlacementOpinions } from '#lib/faces/second-opinion';
import { type PhotoTarget, applyGovernor, deleteErasedPersonsPhoto } from '#lib/photos/sorting/assign-shoot-photo';
import {
  type PlacedCard,
  type ShootPhotoFacts,
  cardAfter,
  cardBefore,
  eraseCards,
  getShootItem,
  photosBetween,
  storeShootItem,
} from '#lib/photos/sorting/store/shoot-photos';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import {
  type CardReading,
  NO_CARD_GOVERNOR,
  type UnassignedReason,
  cameraSequenceId,
  sequencePosition,
} from '#lib/photos/sorting/rules/shoot-sequence';
import { deleteShootObjectForGood } from '#lib/photos/sorting/adapters/shoot-thumbnails';

/** Why a photo has no reading: not an image that decodes, or too large to be read at all. */
export type UnreadPhoto = 'unreadable' | 'too_large';

/** Where a shoot photo ended up: a card, a photo of a person (or withheld, or of nobody, and why), or deleted as an erased person's. */
export type ShootPlacement =
  | { kind: 'card'; code: string | null; personId: string | null }
  | { kind: 'photo'; personId: string | null; reason?: UnassignedReason; heldFor?: string }
  | { kind: 'erased' };

/**
 * Places one inbox photo in the gallery's shoot, in whatever order photos arrive and however
 * often (lib/photos/sorting/rules/shoot-sequence.ts has the rule). Each placement first stores the
 * photo, then reads the cards (a photo) or the photos (a card) around it with strongly
 * consistent reads: of a card and a photo placed at the same moment, at least one sees the
 * other, and applyGovernor keeps the latest card, so the outcome is the same in every order.
 * A repeated placement stores nothing new and repeats the reads, finishing what a failed one
 * began. `faces` is the second opinion (none: the card alone decides); a card's photos it
 * re-governs are judged by opinions of their own (`opinionOf`).
 */
export async function placeShootPhoto(
  scope: GalleryScope,
  facts: ShootPhotoFacts,
  card: CardReading | UnreadPhoto,
  faces?: PlacementOpinions,
): Promise<ShootPlacement> {
  const unread = typeof card === 'string';
  const isCard = !unread && card.kind !== 'photo';
  if (facts.capturedAt === null || unread) {
    // Without a place in a sequence it governs nothing and nothing governs it.
    const reason: UnassignedReason = unread ? card : 'no_capture_time';
    const code = !unread && card.kind === 'card' ? card.code : null;
    await storeShootItem(
      scope,
      'loose',
      isCard ? { ...facts, kind: 'card', code, cardPersonId: null } : { ...facts, kind: 'photo', reason },
    );
    return isCard ? { kind: 'card', code, personId: null } : { kind: 'photo', personId: null, reason };
  }
  const sequenceId = cameraSequenceId(facts.camera);
  const position = sequencePosition(facts.capturedAt, facts.fileName, facts.photoId);
  if (isCard) {
    const code = card.kind === 'card' ? card.code : null;
    const owner = code ? await ownerOfCode(scope, code) : undefined;
    const personId = owner === 'erased' ? null : (owner ?? null);
    const slot = { sequenceId, position };
    const { key, stored } = await storeShootItem(
      scope,
      slot,
      owner === 'erased'
        ? { kind: 'erased_card', erasedAt: nowIso() }
        : { ...facts, kind: 'card', code, cardPersonId: personId },
    );
    // The code read again after the store: a person erased in between is caught here, or by the erasure's last pass.
    const erasedMeanwhile = personId !== null && code !== null && (await ownerOfCode(scope, code)) === 'erased';
    if (erasedMeanwhile) await eraseCards(scope, [{ ...key, ...facts, kind: 'card', code, cardPersonId: personId }]);
    if (owner === 'erased' || erasedMeanwhile || (!stored && (await getShootItem(key))?.kind === 'erased_card')) {
      // An erased person's card, arriving late or uploaded again (a re-run over the original
      // folder): it takes its place as an erased card, which deletes the photos it governs.
      await deleteShootObjectForGood(facts.objectKey);
      await governPhotosAfter(scope, { ...key, position }, sequenceId, null, undefined);
      return { kind: 'erased' };
    }
    await governPhotosAfter(scope, { ...key, position }, sequenceId, personId, faces?.opinionOf);
    return { kind: 'card', code, personId };
  }
  const { key } = await storeShootItem(
    scope,
    { sequenceId, position },
    { ...facts, kind: 'photo', reason: 'before_first_card' },
  );
  const governing = await cardBefore(scope, sequenceId, position);
  if (governing?.kind === 'erased_card') {
    await deleteErasedPersonsPhoto(scope, { ...key, ...facts, kind: 'photo' }, governing.position);
    return { kind: 'erased' };
  }
  const target = governing ? targetOfCard(governing.cardPersonId) : { reason: 'before_first_card' as const };
  const governor = governing
    ? { position: governing.position, card: { pk: governing.pk, sk: governing.sk } }
    : { position: NO_CARD_GOVERNOR };
  if (!governing && !faces) return { kind: 'photo', personId: null, reason: 'before_first_card' };
  const governed = await applyGovernor(scope, key, governor, target, faces?.opinion);
  if (!('state' in governed)) return { kind: 'erased' };
  const { personId, reason, heldFor } = governed.state;
  return { kind: 'photo', personId: personId ?? null, ...(reason ? { reason } : {}), ...(heldFor ? { heldFor } : {}) };
}

/** A card's photos: those after it on its camera, up to the next card. */
async function governPhotosAfter(
  scope: GalleryScope,
  card: Pick<PlacedCard, 'pk' | 'sk' | 'position'>,
  sequenceId: string,
  personId: string | null,
  opinionOf: PlacementOpinions['opinionOf'] | undefined,
): Promise<void> {
  const next = await cardAfter(scope, sequenceId, card.position);
  const photos = await photosBetween(scope, sequenceId, card.position, next?.position);
  // One at a time: they move to the same person, whose photo count each transaction changes.
  for (const photo of photos) {
    const governor = { position: card.position, card: { pk: card.pk, sk: card.sk } };
    await applyGovernor(
      scope,
      { pk: photo.pk, sk: photo.sk },
      governor,
      targetOfCard(personId),
      opinionOf?.(photo.objectKey),
    );
  }
}

function targetOfCard(personId: string | null): PhotoTarget {
  return personId ? { personId } : { reason: 'unknown_code' };
}
