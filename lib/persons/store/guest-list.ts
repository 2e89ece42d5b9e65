import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#lib/platform/table/client';
import { queryGsi1 } from '#lib/platform/table/queries';
import { personKeys } from '#lib/persons/store/keys';
import { GSI1 } from '#lib/platform/table/table-definition';
import { conditionalWrite } from '#lib/platform/table/conditional-writes';
import { mapWithConcurrency } from '#lib/platform/concurrency';
import { guestListKeys } from '#lib/persons/store/access-code-allocation';
import { emailKey } from '#lib/platform/email-address';
import { getPerson, indexEntryUpdate, listAllPersons } from '#lib/persons/store/persons';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import type { Person } from '#lib/persons/rules/person-model';
import * as v from 'valibot';
import { parseItem } from '#lib/platform/table/item-schema';

/**
 * The guest list of an `importedOnly` gallery: the persons the HR import created, found the two
 * ways a check-in names one. Each person is read again from its item, strongly consistent (the
 * index lags behind a check-in that completed it a moment ago).
 */

/** A code item on the guest list: whose code it is. */
const guestListEntrySchema = v.object({ personId: v.string() });
/** A person listed by employee ID: who, and whether imported. */

/** The gallery's imported persons holding this email address (case and surrounding space ignored). */
export async function importedPersonsWithEmail(scope: GalleryScope, email: string): Promise<Person[]> {
  const entries = await queryGsi1(personKeys.importedPersonsByEmail(scope.tenantId, scope.token, emailKey(email)));
  return currentPersons(
    scope,
    entries.map((entry) => parseItem('access code', guestListEntrySchema, entry).personId),
  );
}

/** The gallery's imported person with this ID, as it is now; undefined for anyone else (a person who checked in, or none). */
export async function importedPerson(scope: GalleryScope, personId: string): Promise<Person | undefined> {
  const person = await getPerson(scope, personId, { consistent: true });
  return person?.source === 'import' ? person : undefined;
}

async function currentPersons(scope: GalleryScope, personIds: readonly string[]): Promise<Person[]> {
  const persons = await Promise.all(personIds.map((personId) => getPerson(scope, personId, { consistent: true })));
  return persons
    .filter((person): person is Person => person !== undefined)
    .sort((a, b) => a.personId.localeCompare(b.personId));
}

/**
 * Puts every imported person of the gallery that has an address on its guest list, under its
 * address as it is now: persons imported before the guest list existed, whose code items do
 * not carry it. Safe to run again; an erased person's code item is left as it is. Answers how
 * many persons are on the list.
 */
export async function putImportedPersonsOnGuestList(scope: GalleryScope): Promise<number> {
  const guests = (await listAllPersons(scope)).filter((person) => person.source === 'import' && person.email !== null);
  const listed = await mapWithConcurrency(guests, 8, (person) =>
    conditionalWrite(
      () => db.send(new UpdateCommand(guestListEntryUpdate(scope, person, person.email!))),
      () => false,
    ),
  );
  return listed.filter(Boolean).length;
}

/**
 * The update that puts a person's code item on the guest list under `email` (or moves it there),
 * on the condition that the code is still that person's.
 */
export function guestListEntryUpdate(scope: GalleryScope, person: Pick<Person, 'personId' | 'code'>, email: string) {
  return indexEntryUpdate(
    personKeys.accessCode(scope.tenantId, scope.token, person.code),
    GSI1,
    guestListKeys(scope, person.personId, email),
    { expression: 'personId = :personId', values: { ':personId': person.personId } },
  );
}
