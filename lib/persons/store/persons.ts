import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { PERSON_ITEM_PREFIX, personKeys } from '#lib/persons/store/keys';
import { GSI1, GSI2 } from '#lib/platform/table/table-definition';
import { queryAll } from '#lib/platform/table/queries';
import { getItems } from '#lib/platform/table/batches';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import {
  type ConsentChange,
  PARTICIPANT_CONSENTS,
  type ParticipantConsent,
  type Person,
} from '#lib/persons/rules/person-model';
import { emailKey } from '#lib/platform/email-address';
import { isLanguage } from '#lib/platform/languages';
import * as v from 'valibot';
import { type StoredItem, parseItem } from '#lib/platform/table/item-schema';

/** Persons as items: how one is stored, and the reads of a gallery's persons. They are written by lib/persons/store/access-code-allocation.ts. */

/** A person's item, listed by employee ID (GSI1) and by address (GSI2) where it has them. */
export function toPersonItem(scope: GalleryScope, person: Person): StoredItem {
  const { consentChanges, ...stored } = person;
  return {
    ...personKeys.person(scope.tenantId, scope.token, person.personId),
    ...(person.email ? addressIndexKeys(scope, person.personId, person.email) : {}),
    ...(person.employeeId
      ? {
          [GSI1.partitionKey]: personKeys.personsByEmployeeId(scope.tenantId, scope.token, person.employeeId),
          [GSI1.sortKey]: personKeys.person(scope.tenantId, scope.token, person.personId).sk,
        }
      : {}),
    ...stored,
    ...Object.fromEntries(
      Object.entries(consentChanges ?? {}).map(([consent, change]) => [
        consentChangeAttribute(consent as ParticipantConsent),
        change,
      ]),
    ),
  };
}

/**
 * The attribute of a person item that holds the last change of one consent (`notificationConsentChange`):
 * top level, so that an update can set it on an item that has no change yet.
 */
export function consentChangeAttribute(consent: ParticipantConsent): string {
  return `${consent}Change`;
}

/** The GSI2 keys that list a person under its email address (docs/data-model.md#the-address-index). */
export function addressIndexKeys(scope: GalleryScope, personId: string, email: string) {
  return {
    [GSI2.partitionKey]: personKeys.personsByEmail(scope.tenantId, scope.token, emailKey(email)),
    [GSI2.sortKey]: personKeys.person(scope.tenantId, scope.token, personId).sk,
  };
}

/**
 * The update that lists an item of this feature on an index (sets its keys there) on a
 * condition: a code item on the guest list (GSI1), a person under its address (GSI2).
 */
export function indexEntryUpdate(
  key: { pk: string; sk: string },
  index: { partitionKey: string; sortKey: string },
  entry: Record<string, string>,
  condition: { expression: string; values: Record<string, unknown> },
) {
  return {
    TableName: tableName,
    Key: key,
    UpdateExpression: 'SET #gsiPk = :gsiPk, #gsiSk = :gsiSk',
    ConditionExpression: condition.expression,
    ExpressionAttributeNames: { '#gsiPk': index.partitionKey, '#gsiSk': index.sortKey },
    ExpressionAttributeValues: {
      ':gsiPk': entry[index.partitionKey],
      ':gsiSk': entry[index.sortKey],
      ...condition.values,
    },
  };
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
  const personKey = (personId: string) => personKeys.person(scope.tenantId, scope.token, personId);
  const input = employeeId
    ? {
        IndexName: GSI1.indexName,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': GSI1.partitionKey },
        ExpressionAttributeValues: { ':pk': personKeys.personsByEmployeeId(scope.tenantId, scope.token, employeeId) },
        ExclusiveStartKey: afterPersonId
          ? {
              ...personKey(afterPersonId),
              [GSI1.partitionKey]: personKeys.personsByEmployeeId(scope.tenantId, scope.token, employeeId),
              [GSI1.sortKey]: personKeys.person(scope.tenantId, scope.token, afterPersonId).sk,
            }
          : undefined,
      }
    : {
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :person)',
        ExpressionAttributeValues: {
          ':pk': personKeys.personsOfGallery(scope.tenantId, scope.token),
          ':person': PERSON_ITEM_PREFIX,
        },
        ExclusiveStartKey: afterPersonId ? personKey(afterPersonId) : undefined,
      };
  const items: StoredItem[] = [];
  let startKey = input.ExclusiveStartKey as Record<string, unknown> | undefined;
  while (items.length <= limit) {
    const page = await db.send(
      new QueryCommand({
        ...input,
        TableName: tableName,
        ExclusiveStartKey: startKey,
        Limit: limit + 1 - items.length,
      }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
    if (!startKey) break;
  }
  const persons = items.slice(0, limit).map(fromPersonItem);
  return { persons, lastPersonId: items.length > limit ? persons.at(-1)?.personId : undefined };
}

/**
 * One person of the gallery by ID; undefined when the gallery has no such person. `consistent`
 * reads strongly, for an answer something irreversible follows (a person imported a moment ago
 * may be missing from an eventually consistent read).
 */
export async function getPerson(
  scope: GalleryScope,
  personId: string,
  { consistent = false } = {},
): Promise<Person | undefined> {
  const { Item } = await db.send(
    new GetCommand({
      TableName: tableName,
      Key: personKeys.person(scope.tenantId, scope.token, personId),
      ConsistentRead: consistent,
    }),
  );
  return Item ? fromPersonItem(Item) : undefined;
}

/**
 * The persons of the gallery with this email address (case and surrounding space ignored), with
 * their ID, name, address and language only: one Query of the address's partition of GSI2, which
 * projects just these, whatever the size of the gallery. The index lags a write by a moment; a
 * person stored before the index existed is found once `npm run admin -- backfill indexes` listed it.
 */
export async function listPersonsWithEmail(
  scope: GalleryScope,
  email: string,
): Promise<Pick<Person, 'personId' | 'name' | 'email' | 'language'>[]> {
  const wanted = emailKey(email);
  const items = await queryAll({
    IndexName: GSI2.indexName,
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': GSI2.partitionKey },
    ExpressionAttributeValues: { ':pk': personKeys.personsByEmail(scope.tenantId, scope.token, wanted) },
  });
  return items
    .map((stored) => parseItem('person', personAddressSchema, stored))
    .filter((item) => typeof item.email === 'string' && emailKey(item.email) === wanted)
    .map((item) => ({
      personId: item.personId,
      name: item.name,
      email: item.email!,
      ...(isLanguage(item.language) ? { language: item.language } : {}),
    }));
}

/** Every person of a gallery, in creation order. */
export async function listAllPersons(scope: GalleryScope): Promise<Person[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :person)',
    ExpressionAttributeValues: {
      ':pk': personKeys.personsOfGallery(scope.tenantId, scope.token),
      ':person': PERSON_ITEM_PREFIX,
    },
  });
  return items.map(fromPersonItem);
}

/** The ID of the person holding an access code in the gallery (codes are stored upper case); undefined when none does. */
export async function personIdOfCode(scope: GalleryScope, code: string): Promise<string | undefined> {
  const owner = await ownerOfCode(scope, code);
  return owner === 'erased' ? undefined : owner;
}

/**
 * Who an access code belongs to: a person's ID, the string `erased` when its person was erased (the code
 * is kept, linked to nobody, so it is never given out again and a late camera card showing it
 * is known for an erased person's), or undefined when nobody ever had it.
 */
export async function ownerOfCode(scope: GalleryScope, code: string): Promise<string | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName, Key: personKeys.accessCode(scope.tenantId, scope.token, code) }),
  );
  if (!Item) return undefined;
  return parseItem('access code', accessCodeItemSchema, Item).personId ?? 'erased';
}

/** An access code's item: the person holding it, none once that person was erased. */
const accessCodeItemSchema = v.object({ personId: v.nullish(v.string()) });

const consent = v.nullish(v.boolean());
const consentChange = v.nullish(
  v.object({ given: v.boolean(), at: v.string(), by: v.picklist(['participant', 'studio']) }),
);
const optionalText = v.nullish(v.string());

/** A person's item. Attributes that old items or imported persons lack read as null, false or 0. */
const personItemSchema = v.object({
  personId: v.string(),
  name: v.string(),
  email: optionalText,
  employeeId: optionalText,
  phone: optionalText,
  department: optionalText,
  notes: optionalText,
  shootingDayId: optionalText,
  packageId: optionalText,
  orderNotes: optionalText,
  code: v.string(),
  consents: v.nullish(
    v.object({
      consentGiven: consent,
      faceConsent: consent,
      notificationConsent: consent,
      hrExportConsent: consent,
    }),
  ),
  faceConsentChange: consentChange,
  notificationConsentChange: consentChange,
  hrExportConsentChange: consentChange,
  customFields: v.nullish(v.record(v.string(), v.union([v.string(), v.number()]))),
  source: v.picklist(['import', 'checkin']),
  createdAt: v.string(),
  checkedInAt: v.nullish(v.string()),
  hasSelfie: v.nullish(v.boolean()),
  photoCount: v.nullish(v.number()),
  language: v.nullish(v.string()),
  pickedPhotoId: v.nullish(v.string()),
  declared: v.nullish(
    v.object({ name: v.optional(v.string()), email: v.optional(v.string()), employeeId: v.optional(v.string()) }),
  ),
});

/** What listPersonsWithEmail projects of a person's item. */
const personAddressSchema = v.object({
  personId: v.string(),
  name: v.string(),
  email: optionalText,
  language: v.nullish(v.string()),
});

/** The person an item holds; a CorruptItemError when it does not hold one. */
export function fromPersonItem(stored: StoredItem): Person {
  const item = parseItem('person', personItemSchema, stored);
  const changes: [ParticipantConsent, ConsentChange][] = PARTICIPANT_CONSENTS.flatMap((name) => {
    const change = item[`${name}Change`];
    return change ? [[name, change] as [ParticipantConsent, ConsentChange]] : [];
  });
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
    ...(changes.length > 0 ? { consentChanges: Object.fromEntries(changes) } : {}),
    customFields: item.customFields ?? {},
    source: item.source,
    createdAt: item.createdAt,
    ...(typeof item.checkedInAt === 'string' ? { checkedInAt: item.checkedInAt } : {}),
    hasSelfie: item.hasSelfie === true,
    photoCount: item.photoCount ?? 0,
    ...(isLanguage(item.language) ? { language: item.language } : {}),
    ...(item.pickedPhotoId ? { pickedPhotoId: item.pickedPhotoId } : {}),
    ...(item.declared ? { declared: item.declared } : {}),
  };
}

/** The persons of the gallery with these IDs, in one BatchGet per 100 (those the gallery does not have are left out). */
export async function getPersonsById(scope: GalleryScope, personIds: Iterable<string>): Promise<Person[]> {
  const keys = [...new Set(personIds)].map((personId) => personKeys.person(scope.tenantId, scope.token, personId));
  return (await getItems(keys)).map(fromPersonItem);
}
