import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import { db, tableName } from '#lib/db/client';
import { keys } from '#lib/db/keys';
import { type RetryOptions, cancellationCodes, cancellationItem, withStoreRetries } from '#lib/db/retry';
import { GSI1 } from '#lib/db/table-definition';
import { generateAccessCodeNotIn } from '#lib/domain/access-codes';
import type { Person } from '#lib/domain/person-model';
import { DomainError } from '#lib/domain/domain-error';

export interface GalleryScope {
  tenantId: string;
  token: string;
}

export type PersonDraft = Omit<Person, 'code'>;

/** Two actions per person (person, code) within TransactWriteItems' limit of 100. */
const PERSONS_PER_TRANSACTION = 50;
const PARALLEL_TRANSACTIONS = 4;
/** Rounds of drawing new codes for collisions with codes already in the gallery. */
const CODE_ROUNDS = 8;

export function toPersonItem(scope: GalleryScope, person: Person): Record<string, unknown> {
  return {
    ...keys.person(scope.tenantId, scope.token, person.personId),
    ...(person.employeeId
      ? {
          [GSI1.partitionKey]: keys.personsByEmployeeId(scope.tenantId, scope.token, person.employeeId),
          [GSI1.sortKey]: `PERSON#${person.personId}`,
        }
      : {}),
    ...person,
  };
}

export function accessCodeItem(scope: GalleryScope, person: Pick<Person, 'code' | 'personId' | 'createdAt'>) {
  return { ...keys.accessCode(scope.tenantId, scope.token, person.code), personId: person.personId, createdAt: person.createdAt };
}

/**
 * Stores persons, each with an access code unique in the gallery, in parallel transactions
 * of up to 50 persons. A person and its code are written together or not at all; `written`
 * holds exactly the persons stored, `failed` those that could not be after bounded retries.
 */
export async function insertPersonsWithCodes(
  scope: GalleryScope,
  drafts: readonly PersonDraft[],
): Promise<{ written: Person[]; failed: PersonDraft[] }> {
  const codesInBatch = new Set<string>();
  const persons: Person[] = drafts.map((draft) => {
    const code = generateAccessCodeNotIn(codesInBatch);
    codesInBatch.add(code);
    return { ...draft, code };
  });
  const chunks: Person[][] = [];
  for (let start = 0; start < persons.length; start += PERSONS_PER_TRANSACTION) {
    chunks.push(persons.slice(start, start + PERSONS_PER_TRANSACTION));
  }
  const outcomes = await mapWithConcurrency(chunks, PARALLEL_TRANSACTIONS, (chunk) =>
    writePersonsTransaction(scope, chunk, codesInBatch).then(
      (written) => ({ written, failed: [] as Person[] }),
      () => ({ written: [] as Person[], failed: chunk }),
    ),
  );
  return {
    written: outcomes.flatMap((outcome) => outcome.written),
    failed: outcomes.flatMap((outcome) => outcome.failed.map(({ code: _code, ...draft }) => draft)),
  };
}

/** A condition of one of the extra items of a person transaction failed (for example a full day). */
export class ExtraConditionFailed extends Error {
  constructor(
    readonly extraIndex: number,
    /** The item as it was, when the failed action asked DynamoDB for it. */
    readonly item: Record<string, unknown> | undefined,
  ) {
    super(`Condition of extra transaction item ${extraIndex} failed`);
    this.name = 'ExtraConditionFailed';
  }
}

export type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

/**
 * Writes persons with their code items, and `extraItems` (for example a day's booking), in one
 * transaction. Codes that collide with codes in the gallery are drawn again for another round;
 * a failed condition of an extra item is ExtraConditionFailed.
 */
export async function writePersonsTransaction(
  scope: GalleryScope,
  chunk: Person[],
  codesInBatch: Set<string>,
  extraItems: TransactItem[] | ((persons: Person[]) => TransactItem[]) = [],
  retry?: RetryOptions,
): Promise<Person[]> {
  let persons = chunk;
  for (let round = 0; round < CODE_ROUNDS; round += 1) {
    const transactItems = [
      ...persons.flatMap((person) => [
        { Put: { TableName: tableName, Item: toPersonItem(scope, person), ConditionExpression: 'attribute_not_exists(pk)' } },
        { Put: { TableName: tableName, Item: accessCodeItem(scope, person), ConditionExpression: 'attribute_not_exists(pk)' } },
      ]),
      ...(typeof extraItems === 'function' ? extraItems(persons) : extraItems),
    ];
    try {
      await withStoreRetries(
        () => db.send(new TransactWriteCommand({ TransactItems: transactItems, ClientRequestToken: idempotencyToken(persons) })),
        retry,
      );
      return persons;
    } catch (error) {
      if ((error as Error).name !== 'TransactionCanceledException') throw error;
      const codes = cancellationCodes(error);
      // Person IDs are new ULIDs: an existing person item can only be this chunk, written by an
      // earlier attempt whose answer was lost. Transactions are atomic, so all of it was written.
      if (persons.some((_, index) => codes[index * 2] === 'ConditionalCheckFailed')) return persons;
      const failedExtra = codes.findIndex((code, index) => index >= persons.length * 2 && code === 'ConditionalCheckFailed');
      if (failedExtra >= 0) throw new ExtraConditionFailed(failedExtra - persons.length * 2, cancellationItem(error, failedExtra));
      const collided = new Set(persons.filter((_, index) => codes[index * 2 + 1] === 'ConditionalCheckFailed'));
      if (collided.size === 0) throw error;
      persons = persons.map((person) => {
        if (!collided.has(person)) return person;
        const code = generateAccessCodeNotIn(codesInBatch);
        codesInBatch.add(code);
        return { ...person, code };
      });
    }
  }
  // Only a gallery close to its 923,521 codes gets here; a later attempt draws new codes.
  throw new DomainError('access_codes_exhausted', 'No free access code was found for the gallery; retry.');
}

/** The same persons with the same codes give the same token, so DynamoDB deduplicates a resend. */
function idempotencyToken(persons: readonly Person[]): string {
  const digest = createHash('sha256');
  for (const person of persons) digest.update(`${person.personId}:${person.code};`);
  return digest.digest('hex').slice(0, 36);
}

async function mapWithConcurrency<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export interface PersonsPage {
  persons: Person[];
  /** The last person of the page when more follow. */
  lastPersonId?: string;
}

/**
 * One page of a gallery's persons in creation order, after `afterPersonId`; with
 * `employeeId`, only the persons with that exact employee ID, through GSI1. Reads one item
 * more than asked to know whether another page follows.
 */
export async function listPersons(
  scope: GalleryScope,
  options: { limit: number; afterPersonId?: string; employeeId?: string },
): Promise<PersonsPage> {
  const { limit, afterPersonId, employeeId } = options;
  const personKey = (personId: string) => keys.person(scope.tenantId, scope.token, personId);
  const input = employeeId
    ? {
        IndexName: GSI1.indexName,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': GSI1.partitionKey },
        ExpressionAttributeValues: { ':pk': keys.personsByEmployeeId(scope.tenantId, scope.token, employeeId) },
        ExclusiveStartKey: afterPersonId
          ? {
              ...personKey(afterPersonId),
              [GSI1.partitionKey]: keys.personsByEmployeeId(scope.tenantId, scope.token, employeeId),
              [GSI1.sortKey]: `PERSON#${afterPersonId}`,
            }
          : undefined,
      }
    : {
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :person)',
        ExpressionAttributeValues: { ':pk': keys.personsOfGallery(scope.tenantId, scope.token), ':person': 'PERSON#' },
        ExclusiveStartKey: afterPersonId ? personKey(afterPersonId) : undefined,
      };
  const items: Record<string, any>[] = [];
  let startKey = input.ExclusiveStartKey as Record<string, unknown> | undefined;
  while (items.length <= limit) {
    const page = await db.send(
      new QueryCommand({ ...input, TableName: tableName, ExclusiveStartKey: startKey, Limit: limit + 1 - items.length }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
    if (!startKey) break;
  }
  const persons = items.slice(0, limit).map(toPerson);
  return { persons, lastPersonId: items.length > limit ? persons.at(-1)?.personId : undefined };
}

/** One person of the gallery by ID; undefined when the gallery has no such person. */
export async function getPerson(scope: GalleryScope, personId: string): Promise<Person | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName, Key: keys.person(scope.tenantId, scope.token, personId) }),
  );
  return Item ? toPerson(Item) : undefined;
}

export function toPerson(item: Record<string, any>): Person {
  return {
    personId: item.personId,
    name: item.name,
    email: item.email ?? null,
    employeeId: item.employeeId ?? null,
    phone: item.phone ?? null,
    department: item.department ?? null,
    notes: item.notes ?? null,
    shootingDayId: item.shootingDayId ?? null,
    packageId: item.packageId ?? null,
    orderNotes: item.orderNotes ?? null,
    code: item.code,
    consents: {
      consentGiven: item.consents?.consentGiven ?? null,
      faceConsent: item.consents?.faceConsent ?? null,
      notificationConsent: item.consents?.notificationConsent ?? null,
      hrExportConsent: item.consents?.hrExportConsent ?? null,
    },
    customFields: item.customFields ?? {},
    source: item.source,
    createdAt: item.createdAt,
    hasSelfie: item.hasSelfie === true,
    photoCount: typeof item.photoCount === 'number' ? item.photoCount : 0,
  };
}
