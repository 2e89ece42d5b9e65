import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import { db, tableName } from '#lib/platform/table/client';
import { type TransactItem, itemAt } from '#lib/platform/table/conditional-writes';
import { eventPut } from '#lib/events/store/outbox';
import { personKeys } from '#lib/persons/store/keys';
import { GSI1 } from '#lib/platform/table/table-definition';
import { emailKey } from '#lib/platform/email-address';
import { toPersonItem } from '#lib/persons/store/persons';
import { type RetryOptions, cancellationCodes, withStoreRetries } from '#lib/platform/table/retry';
import { generateAccessCodeNotIn } from '#lib/persons/rules/access-codes';
import { DomainError } from '#lib/platform/domain-error';
import { personCreated } from '#lib/events/rules/event-catalogue';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import type { Person, PersonDraft } from '#lib/persons/rules/person-model';
import { isCancelledTransaction } from '#lib/platform/table/store-errors';
import { mapWithConcurrency } from '#lib/platform/concurrency';
import type { StoredItem } from '#lib/platform/table/item-schema';

/**
 * Access codes: every person is stored through this module, with a code unique in its gallery.
 * Each code in use has an item of its own (its own partition, so code writes never contend),
 * written with the person in one transaction on the condition that it does not exist yet; a
 * code that collides is drawn again. Imports, check-ins and paid orders all allocate so, and the
 * same transaction records each person's person.created event.
 */

/** Three actions per person (person, code, person.created event) within TransactWriteItems' limit of 100. */
export const PERSONS_PER_TRANSACTION = 33;
const PARALLEL_TRANSACTIONS = 4;
/** Rounds of drawing new codes for collisions with codes already in the gallery. */
const CODE_ROUNDS = 8;

/**
 * The item that reserves a person's code. An imported person's with an email address is also on
 * the gallery's guest list (GSI1 personKeys.importedPersonsByEmail, read by lib/persons/store/guest-list.ts).
 */
export function accessCodeItem(
  scope: GalleryScope,
  person: Pick<Person, 'code' | 'personId' | 'createdAt'> & Partial<Pick<Person, 'source' | 'email'>>,
) {
  return {
    ...personKeys.accessCode(scope.tenantId, scope.token, person.code),
    personId: person.personId,
    createdAt: person.createdAt,
    ...(person.source === 'import' && person.email ? guestListKeys(scope, person.personId, person.email) : {}),
  };
}

/** The GSI1 keys that put a person's code item on the guest list under its email address. */
export function guestListKeys(scope: GalleryScope, personId: string, email: string) {
  return {
    [GSI1.partitionKey]: personKeys.importedPersonsByEmail(scope.tenantId, scope.token, emailKey(email)),
    [GSI1.sortKey]: personId,
  };
}

/** The drafts with codes drawn for them, no code twice in the batch (`codesInBatch` records them). */
export function drawCodes(drafts: readonly PersonDraft[], codesInBatch: Set<string>): Person[] {
  return drafts.map((draft) => {
    const code = generateAccessCodeNotIn(codesInBatch);
    codesInBatch.add(code);
    return { ...draft, code };
  });
}

/** A condition of one of the extra items of a person transaction failed (a full day, an order that changed). */
export class ExtraConditionFailed extends Error {
  constructor(
    readonly extraIndex: number,
    /** The item as it was (plain values), when the failed action asked DynamoDB for it. */
    readonly item: StoredItem | undefined,
  ) {
    super(`Condition of extra transaction item ${extraIndex} failed`);
    this.name = 'ExtraConditionFailed';
  }
}

export interface PersonsWritten {
  /** The persons as stored, with the codes they got. */
  persons: Person[];
  /**
   * 'existed': a person item existed already. Person IDs are new ULIDs (a paid order's is the
   * order's), so that is an earlier send of this same transaction, applied with its answer lost
   * (transactions are atomic: all of it was written), or for a paid order another delivery of
   * its payment; the caller tells which.
   */
  outcome: 'written' | 'existed';
}

/**
 * Writes persons with their code items, and `extraItems` (a day's spot, an order's
 * transition), in one transaction. Codes that collide with codes in the gallery are drawn
 * again for another round; after CODE_ROUNDS, access_codes_exhausted. A failed condition of an
 * extra item is ExtraConditionFailed. `attempt` tells this call's transaction from another
 * writing the same persons (DynamoDB deduplicates a resend by the token made from it).
 */
export async function writePersonsWithCodes(
  scope: GalleryScope,
  chunk: Person[],
  options: {
    codesInBatch?: Set<string>;
    /** Items written in the same transaction; a function gets the persons with this round's codes. */
    extraItems?: TransactItem[] | ((persons: Person[]) => TransactItem[]);
    retry?: RetryOptions;
    attempt?: string;
  } = {},
): Promise<PersonsWritten> {
  const codesInBatch = options.codesInBatch ?? new Set(chunk.map((person) => person.code));
  const extraItemsFor = (persons: Person[]) =>
    typeof options.extraItems === 'function' ? options.extraItems(persons) : (options.extraItems ?? []);
  let persons = chunk;
  for (let round = 0; round < CODE_ROUNDS; round += 1) {
    const transactItems = [
      ...persons.flatMap((person) => [
        {
          Put: {
            TableName: tableName,
            Item: toPersonItem(scope, person),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            TableName: tableName,
            Item: accessCodeItem(scope, person),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ]),
      ...extraItemsFor(persons),
      // Last, so that cancellation reasons keep the indexes above.
      ...persons.map((person) =>
        eventPut(personCreated({ tenantId: scope.tenantId, galleryToken: scope.token }, person)),
      ),
    ];
    try {
      const token = requestToken(persons, options.attempt ?? '');
      await withStoreRetries(
        () => db.send(new TransactWriteCommand({ TransactItems: transactItems, ClientRequestToken: token })),
        options.retry,
      );
      return { persons, outcome: 'written' };
    } catch (error) {
      if (!isCancelledTransaction(error)) throw error;
      const codes = cancellationCodes(error);
      if (persons.some((_, index) => codes[index * 2] === 'ConditionalCheckFailed'))
        return { persons, outcome: 'existed' };
      const failedExtra = codes.findIndex(
        (code, index) => index >= persons.length * 2 && code === 'ConditionalCheckFailed',
      );
      if (failedExtra >= 0)
        throw new ExtraConditionFailed(failedExtra - persons.length * 2, itemAt(error, failedExtra));
      const collided = new Set(persons.filter((_, index) => codes[index * 2 + 1] === 'ConditionalCheckFailed'));
      if (collided.size === 0) throw error;
      persons = persons.map((person) => (collided.has(person) ? drawCodes([person], codesInBatch)[0]! : person));
    }
  }
  // Only a gallery close to its 923,521 codes gets here; a later attempt draws new codes.
  throw new DomainError('access_codes_exhausted', 'No free access code was found for the gallery; retry.');
}

/** The same persons with the same codes (and attempt) give the same token, so DynamoDB deduplicates a resend. */
function requestToken(persons: readonly Person[], attempt: string): string {
  const digest = createHash('sha256').update(attempt);
  for (const person of persons) digest.update(`${person.personId}:${person.code};`);
  return digest.digest('hex').slice(0, 36);
}

/**
 * Stores imported persons, each with an access code unique in the gallery, in parallel
 * transactions of up to 50 persons. A person and its code are written together or not at all;
 * `written` holds exactly the persons stored, `failed` those that could not be after bounded retries.
 */
export async function insertPersonsWithCodes(
  scope: GalleryScope,
  drafts: readonly PersonDraft[],
): Promise<{ written: Person[]; failed: PersonDraft[] }> {
  const codesInBatch = new Set<string>();
  const persons = drawCodes(drafts, codesInBatch);
  const chunks: Person[][] = [];
  for (let start = 0; start < persons.length; start += PERSONS_PER_TRANSACTION) {
    chunks.push(persons.slice(start, start + PERSONS_PER_TRANSACTION));
  }
  const outcomes = await mapWithConcurrency(chunks, PARALLEL_TRANSACTIONS, (chunk) =>
    writePersonsWithCodes(scope, chunk, { codesInBatch }).then(
      ({ persons: written }) => ({ written, failed: [] as Person[] }),
      () => ({ written: [] as Person[], failed: chunk }),
    ),
  );
  return {
    written: outcomes.flatMap((outcome) => outcome.written),
    failed: outcomes.flatMap((outcome) => outcome.failed.map(({ code: _code, ...draft }) => draft)),
  };
}
