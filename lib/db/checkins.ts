import { DomainError } from '#lib/domain/domain-error';
import { tableName } from '#lib/db/client';
import { keys } from '#lib/db/keys';
import { ExtraConditionFailed, type GalleryScope, type PersonDraft, writePersonsTransaction } from '#lib/db/persons';
import { generateAccessCode } from '#lib/domain/access-codes';
import type { Person } from '#lib/domain/person-model';

/** Concurrent check-ins for one day contend on its counter: more patience than the default. */
const CHECKIN_RETRIES = { attempts: 10, baseDelayMs: 20, maxDelayMs: 1000 };

/**
 * Stores a checked-in person, its access code and its day's booking in one transaction: the
 * booking's condition keeps the day within capacity under any concurrency (shooting_day_full),
 * and nothing is stored unless everything is.
 */
export async function insertCheckedInPerson(scope: GalleryScope, draft: PersonDraft): Promise<Person> {
  const person: Person = { ...draft, code: generateAccessCode() };
  const booking = draft.shootingDayId
    ? [
        {
          Update: {
            TableName: tableName,
            Key: keys.shootingDay(scope.tenantId, scope.token, draft.shootingDayId),
            UpdateExpression: 'ADD booked :one',
            ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(maxPersons) OR booked < maxPersons)',
            ExpressionAttributeValues: { ':one': 1 },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
          },
        },
      ]
    : [];
  try {
    const [written] = await writePersonsTransaction(scope, [person], new Set([person.code]), booking, CHECKIN_RETRIES);
    return written!;
  } catch (error) {
    // The day's item came back: it exists and is full. No item: the day was deleted meanwhile.
    if (error instanceof ExtraConditionFailed) throw new DomainError(error.item ? 'shooting_day_full' : 'unknown_shooting_day');
    throw error;
  }
}
