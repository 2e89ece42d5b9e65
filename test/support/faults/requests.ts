/**
 * Requests as the fault tests send them: to the local API as the studio's participants (public
 * headers) or its server (API key), with what each answered; and the requests a test makes to
 * set a gallery up (a paid reservation, an imported person).
 */
import { now } from '#lib/platform/clock';
import { recordStripeReadiness } from '#lib/tenants/store/tenants';
import type { ApiAnswer } from '../local-api';
import { type Fixture, world } from './galleries';
import { services } from './local-services';

/** What a request ended with: an HTTP answer, or (for the photo ingest) the invocation and what it threw. */
export type Outcome = { kind: 'answer'; answer: ApiAnswer } | { kind: 'invocation'; error?: Error };

export const publicHeaders = () => ({ 'X-Tenant-Slug': world.slug });
export const serverHeaders = () => ({ 'X-Tenant-Slug': world.slug, Authorization: `Bearer ${world.apiKey}` });

export const sessionIdOf = (checkoutUrl: string) => checkoutUrl.split('/').pop()!;

/** A request to the local API; a Checkout Session URL it answers counts as handed out to a participant. */
export async function call(
  f: Fixture,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown },
): Promise<Outcome> {
  const answer = await services.api.call(path, options);
  if (answer.status === 200 && typeof answer.body?.checkoutUrl === 'string')
    f.handedOut.add(sessionIdOf(answer.body.checkoutUrl));
  return { kind: 'answer', answer };
}

export const answerOf = (outcome: Outcome): ApiAnswer => {
  if (outcome.kind !== 'answer') throw new Error('not an HTTP answer');
  return outcome.answer;
};

/** An outcome in a few words, for messages: `503 storage_unavailable`, `threw TimeoutError`, `ok`. */
export const describeOutcome = (outcome: Outcome): string =>
  outcome.kind === 'answer'
    ? `${outcome.answer.status} ${outcome.answer.body?.error ?? outcome.answer.body?.outcome ?? ''}`.trim()
    : outcome.error
      ? `threw ${outcome.error.name}`
      : 'ok';

let nameCounter = 0;
export const uniqueName = (prefix: string) => `${prefix} ${(nameCounter += 1)}`;

/** The body of a submitCheckin on the gallery's day. */
export function checkinBody(f: Fixture, overrides: Record<string, unknown> = {}) {
  return {
    action: 'submitCheckin',
    token: f.token,
    name: uniqueName('Participant'),
    email: 'participant@example.com',
    shootingDayId: f.dayId,
    ...overrides,
  };
}

/** Records whether the studio's connected account can take payments, as checked at `checkedAt`. */
export async function cacheReadiness(ready = true, checkedAt = now()): Promise<void> {
  await recordStripeReadiness(world.slug, { accountId: world.accountId, ready, checkedAt });
}

/** A pending reservation of the paid package, with its Checkout Session. */
export async function paidCheckin(f: Fixture, extra: Record<string, unknown> = {}) {
  await cacheReadiness();
  const outcome = await call(f, '/group-shoot', {
    method: 'POST',
    headers: publicHeaders(),
    body: {
      action: 'submitCheckin',
      token: f.token,
      name: uniqueName('Paying'),
      email: 'pay@example.com',
      shootingDayId: f.dayId,
      selectedPackageId: f.paidPackageId,
      termsAccepted: true,
      ...extra,
    },
  });
  const answer = answerOf(outcome);
  if (answer.status !== 200) throw new Error(`paid check-in failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body as { orderId: string; checkoutUrl: string; statusToken: string; retryToken: string };
}

/** One person imported by the server; answers its personId. */
export async function importOne(f: Fixture): Promise<string> {
  const answer = answerOf(
    await call(f, `/groupshoot/${f.token}/persons`, {
      method: 'POST',
      headers: serverHeaders(),
      body: { persons: [{ name: uniqueName('Imported') }] },
    }),
  );
  if (answer.status !== 200) throw new Error(`import failed: ${answer.status}`);
  return answer.body.persons[0].personId as string;
}
