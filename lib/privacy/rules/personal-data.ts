import type { Person } from '#lib/persons/rules/person-model';

/**
 * Personal data: who an erasure is about, what of an order survives it, and how long a
 * gallery keeps what (docs/personal-data.md).
 */

/** Whose data an erasure removes, within one gallery. An email or employee ID can name several persons. */
export type ErasureSubject = { personId: string } | { email: string } | { employeeId: string };

/** What an order holds about a participant, as far as erasure needs to know. */
export interface OrderParticipant {
  personId: string;
  email: string | null;
  employeeId: string | null;
}

const normalisedEmail = (email: string) => email.trim().toLowerCase();

export function describeSubject(subject: ErasureSubject): string {
  if ('personId' in subject) return `person ${subject.personId}`;
  if ('email' in subject) return 'the email address given';
  return `employee ID ${subject.employeeId}`;
}

export function personMatchesSubject(
  person: Pick<Person, 'personId' | 'email' | 'employeeId'>,
  subject: ErasureSubject,
): boolean {
  if ('personId' in subject) return person.personId === subject.personId;
  if ('email' in subject)
    return person.email !== null && normalisedEmail(person.email) === normalisedEmail(subject.email);
  return person.employeeId === subject.employeeId;
}

/**
 * An order is the subject's when it is one of the erased persons' (a paid order's person has
 * the order's person ID), or when it carries the subject's email or employee ID: a reservation
 * that never became a person still holds what the participant typed.
 */
export function orderMatchesSubject(
  participant: OrderParticipant,
  subject: ErasureSubject,
  erasedPersonIds: ReadonlySet<string>,
): boolean {
  return erasedPersonIds.has(participant.personId) || personMatchesSubject(participant, subject);
}

/**
 * What an order keeps once its participant is erased: what accounting needs (the order, its
 * package and amount, the Stripe objects, the dates) and nothing that names a person. Every
 * other attribute (the participant's draft, the checkout URL, the access code, token hashes)
 * is removed.
 */
export const ORDER_ACCOUNTING_ATTRIBUTES: ReadonlySet<string> = new Set([
  'pk',
  'sk',
  'orderId',
  'tenantId',
  'galleryToken',
  'status',
  'packageId',
  'packageName',
  'amount',
  'currency',
  'accountId',
  'sessionId',
  'replacedSessionId',
  'paidBy',
  'retries',
  'createdAt',
  'updatedAt',
  'erasedAt',
]);

/** The attributes of a stored order that erasure removes. */
export function personalOrderAttributes(orderItem: Record<string, unknown>): string[] {
  return Object.keys(orderItem).filter((name) => !ORDER_ACCOUNTING_ATTRIBUTES.has(name));
}

/**
 * The day retention counts from: the gallery's last shooting day, or the day it was created
 * when it has none. Days are dates (YYYY-MM-DD); the count starts at the end of that day, UTC.
 */
export function retentionStartDate(shootingDayDates: readonly string[], galleryCreatedAt: string): string {
  const dates = [...shootingDayDates].sort();
  return dates.at(-1) ?? galleryCreatedAt.slice(0, 10);
}

/** Whether data kept `days` after `startDate` is due for removal at `nowMs`. */
export function isRetentionDue(startDate: string, days: number, nowMs: number): boolean {
  const endOfStartDay = Date.parse(`${startDate}T00:00:00Z`) + 24 * 3600 * 1000;
  return nowMs >= endOfStartDay + days * 24 * 3600 * 1000;
}
