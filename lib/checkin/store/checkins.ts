import { ExtraConditionFailed, writePersonsWithCodes } from '#lib/persons/store/access-code-allocation';
import { tableName } from '#lib/platform/table/client';
import { CONTENDED_RETRIES, type TransactItem } from '#lib/platform/table/conditional-writes';
import { spotRefusal, takeSpot } from '#lib/galleries/store/day-bookings';
import { eventPut } from '#lib/events/store/outbox';
import { keys } from '#lib/platform/table/keys';
import { generateAccessCode } from '#lib/persons/rules/access-codes';
import { DomainError } from '#lib/platform/domain-error';
import { emailKey } from '#lib/platform/email-address';
import { checkinCompleted } from '#lib/events/rules/event-catalogue';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import type { Person, PersonDraft } from '#lib/persons/rules/person-model';

/** Counts one more free check-in of an email address in the gallery, refused once it made `limit`. */
export function emailCheckinCount(scope: GalleryScope, email: string, limit: number): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: keys.emailCheckins(scope.tenantId, scope.token, emailKey(email)),
      UpdateExpression: 'ADD checkins :one',
      ConditionExpression: 'attribute_not_exists(checkins) OR checkins < :limit',
      ExpressionAttributeValues: { ':one': 1, ':limit': limit },
    },
  };
}

/**
 * Stores a checked-in person, its access code, its day's spot and its email's count in one
 * transaction: the spot's condition keeps the day within capacity under any concurrency
 * (shooting_day_full), the count's keeps one address to `checkinsPerEmail` free check-ins
 * (email_checkin_limit), and nothing is stored unless everything is, the check-in's events included.
 */
export async function insertCheckedInPerson(scope: GalleryScope, draft: PersonDraft, checkinsPerEmail: number): Promise<Person> {
  const person: Person = { ...draft, code: generateAccessCode() };
  const spot = draft.shootingDayId ? [takeSpot(scope, draft.shootingDayId)] : [];
  const count = draft.email ? [emailCheckinCount(scope, draft.email, checkinsPerEmail)] : [];
  try {
    const { persons } = await writePersonsWithCodes(scope, [person], {
      extraItems: ([stored]) => [...spot, ...count, eventPut(checkinCompleted({ tenantId: scope.tenantId, galleryToken: scope.token }, stored!, null))],
      retry: CONTENDED_RETRIES,
    });
    return persons[0]!;
  } catch (error) {
    if (!(error instanceof ExtraConditionFailed)) throw error;
    if (error.extraIndex < spot.length) throw spotRefusal(error.item);
    throw emailCheckinLimitReached(checkinsPerEmail);
  }
}

/** email_checkin_limit, saying how many check-ins the address made. */
export function emailCheckinLimitReached(checkinsPerEmail: number): DomainError {
  return new DomainError('email_checkin_limit', `This email address has checked in ${checkinsPerEmail} time${checkinsPerEmail === 1 ? '' : 's'} to this gallery already.`);
}
