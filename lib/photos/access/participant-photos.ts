import { createHash, timingSafeEqual } from 'node:crypto';
import type {
  AccessPair,
  MyPhotosInput,
  ParticipantPhotos,
  ParticipantProof,
  PhotoLinkRequested,
} from '#lib/photos/access/photo-schemas';
import type { ResultMembers } from '#lib/platform/schema-parts';
import { getPerson, personIdOfCode } from '#lib/persons/store/persons';
import type { Tenant } from '#lib/tenants/store/tenants';
import { now } from '#lib/platform/clock';
import { DomainError } from '#lib/platform/domain-error';
import { emailKey } from '#lib/platform/email-address';
import { loggableError, logger } from '#lib/platform/logger';
import type { GalleryConfiguration } from '#lib/galleries/rules/gallery-model';
import { publicLimitsOf } from '#lib/galleries/rules/public-limits';
import type { Person } from '#lib/persons/rules/person-model';
import { clientSiteKey } from '#lib/rate-limits/rules/client-address';
import { consumeRateLimit, publicCounterId, refundRateLimit } from '#lib/rate-limits/store/rate-limit-counters';
import {
  LOOKUP_FAILURES_BUDGET,
  type LookupBudget,
  type SecondFactorKind,
  lookupBudgets,
  lookupByCodeAllowed,
} from '#lib/photos/access/rules/lookup-budgets';
import { participantPhotosAnswer } from '#lib/photos/access/person-photos';
import { answerUniformly } from '#lib/photos/access/photos-by-link';
import { emailPhotoLink } from '#lib/photos/notices/participant-emails';
import { keyedDigest, personOfPhotoLink } from '#lib/photos/links/photo-links';

/** A person ID no person has: read in place of the person when the code is unknown, so both cases cost the same reads. */
const NO_PERSON_ID = 'per_00000000000000000000000000';

/** The second factor a participant proves the code with. */
type SecondFactor = { kind: SecondFactorKind; value: string } | undefined;

/** The email when one is given; else the employee ID. */
function secondFactorOf(request: AccessPair): SecondFactor {
  if (request.email) return { kind: 'email', value: request.email };
  return request.employeeId ? { kind: 'employeeId', value: request.employeeId } : undefined;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * Whether the factor is the person's: the email compared as addresses are (case and space
 * ignored, lib/platform/email-address.ts), the employee ID exactly and only for a person without an
 * email. Digests are compared in constant time, and a missing person is compared against a
 * value nobody has, so the time taken tells nothing about the stored value.
 */
function factorMatches(person: Person | undefined, factor: NonNullable<SecondFactor>): boolean {
  if (factor.kind === 'email') {
    const stored = person?.email ? emailKey(person.email) : '';
    const matches = timingSafeEqual(digest(stored), digest(emailKey(factor.value)));
    return matches && stored !== '';
  }
  const eligible = person !== undefined && person.email === null && person.employeeId !== null;
  const matches = timingSafeEqual(digest(eligible ? person.employeeId! : ''), digest(factor.value));
  return matches && eligible;
}

/** Gives the charges back; failing to never fails the answer (the budget is then one short for a while). */
async function giveBack(counters: { counter: string; budget: LookupBudget }[], at: number): Promise<void> {
  await Promise.all(
    counters.map(({ counter, budget }) =>
      refundRateLimit(counter, budget.policy, at).catch((error: Error) =>
        logger.error('photo lookup charge not given back', { error: loggableError(error) }),
      ),
    ),
  );
}

/** A lookup by code: the person whose pair it is, or, past a budget, the uniform answer (no verdict). */
export type PairVerdict =
  | { person: Person; uniformAnswer?: undefined }
  | { person?: undefined; uniformAnswer: ResultMembers<typeof PhotoLinkRequested> };

/**
 * The participant with this access code and second factor in the gallery `configuration`, where
 * the gallery takes lookups by code with that factor (else photo_lookup_by_code_off). Every wrong
 * pair (unknown code, another email or employee ID, an employee ID where the person has an email,
 * no factor at all) is the one refusal unknown_access_pair; an unknown code reads as much as a
 * known one.
 *
 * Wrong pairs are counted in three budgets (lib/photos/access/rules/lookup-budgets.ts): the lookup takes
 * one from each before its pair is checked (exact under concurrency) and a right pair gives them
 * back. Where any is spent, the lookup gets no verdict: the uniform answer photoLinkRequested,
 * and where the pair was right, the person gets a photo link by email. So no budget refuses a
 * participant, and a guesser past a budget learns nothing. `clientAddress`: the request's source.
 * myPhotos and pickPhoto both verify their pair here.
 */
export async function verifyAccessPair(
  tenant: Tenant,
  configuration: GalleryConfiguration,
  pair: AccessPair,
  clientAddress: string | undefined,
): Promise<PairVerdict> {
  const startedAt = performance.now();
  const factor = secondFactorOf(pair);
  if (!lookupByCodeAllowed(configuration.gallery.photoAccess, factor?.kind))
    throw new DomainError('photo_lookup_by_code_off');
  const scope = { tenantId: tenant.tenantId, token: configuration.gallery.token };
  const at = now();
  const budgets = lookupBudgets(publicLimitsOf(configuration.gallery.publicLimits), {
    site: clientSiteKey(clientAddress),
    code: await keyedDigest(`access code\n${scope.tenantId}\n${scope.token}`, pair.code),
  });
  const charges = budgets.map((budget) => ({
    budget,
    counter: publicCounterId(scope.tenantId, scope.token, LOOKUP_FAILURES_BUDGET, budget.client),
  }));
  const [verdicts, person] = await Promise.all([
    Promise.all(charges.map(({ counter, budget }) => consumeRateLimit(counter, budget.policy, at))),
    personIdOfCode(scope, pair.code).then((personId) => getPerson(scope, personId ?? NO_PERSON_ID)),
  ]);
  const right = factor !== undefined && factorMatches(person, factor) && person !== undefined;
  const taken = charges.filter((_, index) => verdicts[index]!.admitted);
  if (taken.length < charges.length) {
    // Past a budget: this lookup was no attempt the guesser learns from, so it costs no budget either.
    await giveBack(taken, at);
    if (right) await emailPhotoLink(tenant, configuration, person);
    return { uniformAnswer: await answerUniformly(startedAt) };
  }
  if (!right) throw new DomainError('unknown_access_pair');
  await giveBack(taken, at);
  return { person };
}

/**
 * The participant a proof names, for the actions that change something of theirs (pickPhoto,
 * withdrawFaceConsent): the person of a photo link (403 photo_link_invalid as for photosByLink),
 * or of an access code and its second factor as verifyAccessPair finds them, with its budgets of
 * wrong pairs (past one, the uniform answer and no person: the caller changes nothing).
 */
export async function participantOfProof(
  tenant: Tenant,
  configuration: GalleryConfiguration,
  proof: ParticipantProof,
  clientAddress: string | undefined,
): Promise<PairVerdict> {
  if ('photoLink' in proof) {
    const scope = { tenantId: tenant.tenantId, token: configuration.gallery.token };
    return { person: await personOfPhotoLink(scope, proof.photoLink) };
  }
  return verifyAccessPair(tenant, configuration, proof.accessPair, clientAddress);
}

/**
 * `myPhotos` in the gallery `configuration`: the photos of the participant with this access
 * code and second factor (the body parsed by parseMyPhotos), as verifyAccessPair finds them;
 * past a budget of wrong pairs, the uniform answer. The person's ID comes with a photos answer,
 * not in it: the caller names it to the idempotency record, which erasure finds by it.
 */
export async function participantPhotos(
  tenant: Tenant,
  configuration: GalleryConfiguration,
  request: MyPhotosInput,
  clientAddress: string | undefined,
): Promise<{
  personId?: string;
  answer: ResultMembers<typeof ParticipantPhotos> | ResultMembers<typeof PhotoLinkRequested>;
}> {
  const verdict = await verifyAccessPair(tenant, configuration, request, clientAddress);
  if (!verdict.person) return { answer: verdict.uniformAnswer };
  const scope = { tenantId: tenant.tenantId, token: configuration.gallery.token };
  return { personId: verdict.person.personId, answer: await participantPhotosAnswer(scope, verdict.person) };
}
