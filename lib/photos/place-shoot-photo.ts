import { personIdOfCode } from '#lib/persons/store/persons';
import { type PhotoTarget, applyGovernor } from '#lib/photos/assign-shoot-photo';
import { type ShootPhotoFacts, cardAfter, cardBefore, photosBetween, storeShootItem } from '#lib/photos/store/shoot-photos';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { type CardReading, type UnassignedReason, cameraSequenceId, sequencePosition } from '#lib/photos/rules/shoot-sequence';

/** Where a shoot photo ended up: a card, or a photo of a person, or a photo of nobody (and why). */
export type ShootPlacement = { kind: 'card'; code: string | null; personId: string | null } | { kind: 'photo'; personId: string | null; reason?: UnassignedReason };

/**
 * Places one inbox photo in the gallery's shoot, in whatever order photos arrive and however
 * often (lib/photos/rules/shoot-sequence.ts has the rule). Each placement first stores the
 * photo, then reads the cards (a photo) or the photos (a card) around it with strongly
 * consistent reads: of a card and a photo placed at the same moment, at least one sees the
 * other, and applyGovernor keeps the latest card, so the outcome is the same in every order.
 * A repeated placement stores nothing new and repeats the reads, finishing what a failed one began.
 */
export async function placeShootPhoto(scope: GalleryScope, facts: ShootPhotoFacts, card: CardReading | 'unreadable'): Promise<ShootPlacement> {
  const isCard = card !== 'unreadable' && card.kind !== 'photo';
  if (facts.capturedAt === null || card === 'unreadable') {
    // Without a place in a sequence it governs nothing and nothing governs it.
    const reason: UnassignedReason = card === 'unreadable' ? 'unreadable' : 'no_capture_time';
    const code = card !== 'unreadable' && card.kind === 'card' ? card.code : null;
    await storeShootItem(scope, 'loose', isCard ? { ...facts, kind: 'card', code, cardPersonId: null } : { ...facts, kind: 'photo', reason });
    return isCard ? { kind: 'card', code, personId: null } : { kind: 'photo', personId: null, reason };
  }
  const sequenceId = cameraSequenceId(facts.camera);
  const position = sequencePosition(facts.capturedAt, facts.fileName, facts.photoId);
  if (isCard) {
    const code = card.kind === 'card' ? card.code : null;
    const personId = (code && (await personIdOfCode(scope, code))) || null;
    await storeShootItem(scope, { sequenceId, position }, { ...facts, kind: 'card', code, cardPersonId: personId });
    await governPhotosAfter(scope, sequenceId, position, personId);
    return { kind: 'card', code, personId };
  }
  const { key } = await storeShootItem(scope, { sequenceId, position }, { ...facts, kind: 'photo', reason: 'before_first_card' });
  const governing = await cardBefore(scope, sequenceId, position);
  if (!governing) return { kind: 'photo', personId: null, reason: 'before_first_card' };
  const target = targetOfCard(governing.cardPersonId);
  await applyGovernor(scope, key, governing.position, target);
  return 'personId' in target ? { kind: 'photo', personId: target.personId } : { kind: 'photo', personId: null, reason: target.reason };
}

/** A card's photos: those after it on its camera, up to the next card. */
async function governPhotosAfter(scope: GalleryScope, sequenceId: string, position: string, personId: string | null): Promise<void> {
  const next = await cardAfter(scope, sequenceId, position);
  const photos = await photosBetween(scope, sequenceId, position, next?.position);
  // One at a time: they move to the same person, whose photo count each transaction changes.
  for (const photo of photos) await applyGovernor(scope, { pk: photo.pk, sk: photo.sk }, position, targetOfCard(personId));
}

function targetOfCard(personId: string | null): PhotoTarget {
  return personId ? { personId } : { reason: 'unknown_code' };
}
