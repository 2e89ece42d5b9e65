import type { Photo } from '#lib/photos/common/rules/photo-model';
import { portraitPhotoOf } from '#lib/photos/access/rules/portrait-photo';
import type { SkipReason } from '#lib/hr-exports/rules/hr-export-model';

/**
 * Who goes into an HR export: only a person who said yes to passing their photos to their
 * employer's HR system (hrExportConsent true). The main consent does not cover it: passing
 * photos to the employer is another purpose (docs/hr-export.md#consent).
 */
export function hasHrExportConsent(person: { consents: { hrExportConsent: boolean | null } }): boolean {
  return person.consents.hrExportConsent === true;
}

/** A consenting person's portrait, or why there is none. */
export type PortraitChoice = { kind: 'portrait'; photo: Photo } | { kind: 'skip'; reason: SkipReason };

/**
 * The photo an export takes for a person: the person's portrait (their pick where it is still
 * among their photos, else the first in capture order); noPhoto without any.
 */
export function choosePortrait(photos: readonly Photo[], pickedPhotoId: string | undefined): PortraitChoice {
  const photo = portraitPhotoOf(photos, pickedPhotoId);
  return photo ? { kind: 'portrait', photo } : { kind: 'skip', reason: 'noPhoto' };
}
