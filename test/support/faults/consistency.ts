/**
 * What must hold of a gallery whatever failed: nothing lost, nothing half-written. Each broken
 * rule is reported as one sentence, so a test can list every one of them at once.
 */
import { keys } from '../table-keys';
import { selfieObjectKey } from '#lib/platform/media-keys';
import { COUNTERS, type GalleryState, readState } from './gallery-state';
import type { Fixture } from './galleries';
import { services } from './local-services';

export interface ConsistencyOptions {
  /** Statistics counters must be exact (everything the request did succeeded, or nothing was written). */
  strictCounters: boolean;
  /** Every paid Checkout Session has been delivered with a 2xx: its reservation must be paid. */
  paymentsSettled: boolean;
}

/**
 * Everything that must hold of a gallery whatever failed: no person without its code item and
 * no code item without its person; every day booked exactly by its persons and pending
 * reservations; every pending reservation with a Checkout Session that can still end it, and no
 * second payable session; every paid reservation with its person; no selfie object without its
 * person or reservation; photo counts equal to the photos; and, where asked, exact counters.
 */
export function consistencyProblems(f: Fixture, state: GalleryState, options: ConsistencyOptions): string[] {
  const problems: string[] = [];
  const persons = [...state.persons];
  const orders = [...state.orders];
  for (const [personId, person] of persons) {
    const pk = keys.accessCode(f.tenantId, f.token, person.code).pk;
    if (state.codes.get(pk) !== personId)
      problems.push(`person ${personId} has no access-code item for ${person.code} (found ${state.codes.get(pk)})`);
  }
  for (const [pk, personId] of state.codes) {
    if (personId !== null && !state.persons.has(personId))
      problems.push(`access-code item ${pk} names ${personId}, who is not stored`);
  }
  for (const [dayId, booked] of state.days) {
    const holders =
      persons.filter(([, person]) => person.day === dayId).length +
      orders.filter(([, order]) => order.status === 'pending' && order.day === dayId).length;
    if (booked !== holders)
      problems.push(`day ${dayId} counts ${booked} bookings for ${holders} persons and pending reservations`);
  }
  const sessions = [...services.emulator.sessions.values()].filter(
    (session) => session.metadata?.galleryToken === f.token,
  );
  for (const [orderId, order] of orders) {
    const current = order.sessionId ? services.emulator.sessions.get(order.sessionId) : undefined;
    if (order.status === 'pending' && (!current || !['open', 'complete'].includes(current.status))) {
      problems.push(
        `pending reservation ${orderId} holds its spot without a Checkout Session that can end it (sessionId ${order.sessionId}, ${current?.status ?? 'no such session'})`,
      );
    }
    const payable = sessions.filter(
      (session) => session.metadata?.orderId === orderId && session.status === 'open' && f.handedOut.has(session.id),
    );
    if (order.status !== 'pending' && payable.length > 0)
      problems.push(`${order.status} reservation ${orderId} still has a payable session ${payable[0]!.id}`);
    if (payable.length > 1)
      problems.push(
        `reservation ${orderId} can be paid twice: open sessions ${payable.map((session) => session.id).join(', ')}`,
      );
    if (order.status === 'paid' && state.persons.get(order.personId)?.code !== order.code) {
      problems.push(`paid reservation ${orderId} has no person ${order.personId} with code ${order.code}`);
    }
  }
  if (options.paymentsSettled) {
    for (const session of sessions.filter((candidate) => candidate.status === 'complete')) {
      const order = state.orders.get(session.metadata.orderId);
      if (order && order.status !== 'paid')
        problems.push(
          `payment of session ${session.id} was acknowledged, but reservation ${session.metadata.orderId} is ${order.status}`,
        );
    }
  }
  for (const [pk, orderId] of state.tokens) {
    if (orderId !== null && !state.orders.has(orderId))
      problems.push(`checkout token ${pk.slice(0, 24)}… names reservation ${orderId}, which is not stored`);
  }
  const expectedSelfies = [
    ...persons.filter(([, person]) => person.hasSelfie).map(([personId]) => personId),
    ...orders.filter(([, order]) => order.status !== 'paid' && order.hasSelfie).map(([, order]) => order.personId),
  ]
    .map((personId) => selfieObjectKey(f.tenantId, f.token, personId))
    .sort();
  for (const key of state.selfies.filter((candidate) => !expectedSelfies.includes(candidate)))
    problems.push(`selfie object ${key} belongs to no person or reservation`);
  for (const key of expectedSelfies.filter((candidate) => !state.selfies.includes(candidate)))
    problems.push(`selfie object ${key} is missing`);
  for (const [personId, count] of state.photos) {
    if (state.persons.get(personId)?.photoCount !== count)
      problems.push(`person ${personId} counts ${state.persons.get(personId)?.photoCount} photos but has ${count}`);
  }
  if (options.strictCounters) {
    const expected: Record<string, number> = {
      personsImported: persons.filter(([, person]) => person.source === 'import').length,
      personsCheckedIn: persons.filter(([, person]) => person.source === 'checkin').length,
      personsWithSelfie: persons.filter(([, person]) => person.hasSelfie).length,
      personsWithPhotos: persons.filter(([, person]) => person.photoCount > 0).length,
      photos: persons.reduce((sum, [, person]) => sum + person.photoCount, 0),
      ordersPending: orders.filter(([, order]) => order.status === 'pending').length,
      ordersPaid: orders.filter(([, order]) => order.status === 'paid').length,
      ordersExpired: orders.filter(([, order]) => order.status === 'expired').length,
      ordersCanceled: orders.filter(([, order]) => order.status === 'canceled').length,
    };
    for (const name of COUNTERS) {
      if (state.counters[name] !== expected[name])
        problems.push(`statistics counter ${name} is ${state.counters[name]}, the gallery holds ${expected[name]}`);
    }
  }
  return problems;
}

/** Reads the gallery and expects no problem of consistencyProblems(); answers what it read. */
export async function expectConsistent(
  f: Fixture,
  options: ConsistencyOptions,
  readOptions: { photos?: boolean } = {},
): Promise<GalleryState> {
  const state = await readState(f, readOptions);
  expect(consistencyProblems(f, state, options)).toEqual([]);
  return state;
}
