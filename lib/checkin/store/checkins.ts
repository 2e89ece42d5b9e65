import { ExtraConditionFailed, writePersonsWithCodes } from '#lib/persons/store/access-code-allocation';
import { CONTENDED_RETRIES } from '#lib/platform/table/conditional-writes';
import { type SpotTaking, withSpotTaken } from '#lib/galleries/store/day-bookings';
import { eventPut } from '#lib/events/store/outbox';
import { generateAccessCode } from '#lib/persons/rules/access-codes';
import { DomainError } from '#lib/platform/domain-error';
import { emailCheckinCount } from '#lib/checkin/store/email-checkins';
import { checkinCompleted } from '#lib/events/rules/event-catalogue';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import type { SpotCounter } from '#lib/galleries/rules/spot-counters';
import type { Person, PersonDraft } from '#lib/persons/rules/person-model';

/**
 * Stores a checked-in person, its access code, its day's spot and its email's count in one
 * transaction: the spot's condition keeps the day within capacity under any concurrency
 * (shooting_day_full), the count's keeps one address to `checkinsPerEmail` free check-ins
 * (email_checkin_limit), and nothing is stored unless everything is, the check-in's events included.
 * The spot comes from one of the day's counters with room, as `dayCounters` (the gallery read
 * of the request) show them (withSpotTaken).
 */
export function insertCheckedInPerson(
  scope: GalleryScope,
  draft: PersonDraft,
  checkinsPerEmail: number,
  dayCounters?: readonly SpotCounter[],
): Promise<Person> {
  if (!draft.shootingDayId) return insertWithSpot(scope, draft, checkinsPerEmail, undefined);
  return withSpotTaken(scope, draft.shootingDayId, dayCounters, {}, (spot) =>
    insertWithSpot(scope, draft, checkinsPerEmail, spot),
  );
}

async function insertWithSpot(
  scope: GalleryScope,
  draft: PersonDraft,
  checkinsPerEmail: number,
  taking: SpotTaking | undefined,
): Promise<Person> {
  const person: Person = { ...draft, code: generateAccessCode() };
  const spot = taking?.items ?? [];
  const count = draft.email ? [emailCheckinCount(scope, draft.email, checkinsPerEmail)] : [];
  try {
    const { persons } = await writePersonsWithCodes(scope, [person], {
      extraItems: ([stored]) => [
        ...spot,
        ...count,
        eventPut(checkinCompleted({ tenantId: scope.tenantId, galleryToken: scope.token }, stored!, null)),
      ],
      retry: taking ? taking.retry : CONTENDED_RETRIES,
    });
    return persons[0]!;
  } catch (error) {
    if (!(error instanceof ExtraConditionFailed)) throw error;
    if (taking && error.extraIndex < spot.length) throw taking.refusal(error.extraIndex, error.item);
    throw emailCheckinLimitReached(checkinsPerEmail);
  }
}

/** email_checkin_limit, saying how many check-ins the address made. */
export function emailCheckinLimitReached(checkinsPerEmail: number): DomainError {
  return new DomainError(
    'email_checkin_limit',
    `This email address has checked in ${checkinsPerEmail} time${checkinsPerEmail === 1 ? '' : 's'} to this gallery already.`,
  );
}
