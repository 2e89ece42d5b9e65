import { ExtraConditionFailed, writePersonsWithCodes } from '#lib/db/access-code-allocation';
import { CONTENDED_RETRIES } from '#lib/db/conditional-writes';
import { spotRefusal, takeSpot } from '#lib/db/day-bookings';
import { generateAccessCode } from '#lib/domain/access-codes';
import type { GalleryScope } from '#lib/domain/gallery-model';
import type { Person, PersonDraft } from '#lib/domain/person-model';

/**
 * Stores a checked-in person, its access code and its day's spot in one transaction: the
 * spot's condition keeps the day within capacity under any concurrency (shooting_day_full),
 * and nothing is stored unless everything is.
 */
export async function insertCheckedInPerson(scope: GalleryScope, draft: PersonDraft): Promise<Person> {
  const person: Person = { ...draft, code: generateAccessCode() };
  const extraItems = draft.shootingDayId ? [takeSpot(scope, draft.shootingDayId)] : [];
  try {
    const { persons } = await writePersonsWithCodes(scope, [person], { extraItems, retry: CONTENDED_RETRIES });
    return persons[0]!;
  } catch (error) {
    if (error instanceof ExtraConditionFailed) throw spotRefusal(error.item);
    throw error;
  }
}
