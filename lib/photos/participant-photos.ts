import { createHash, timingSafeEqual } from 'node:crypto';
import type { MyPhotosInput, ParticipantPhotos } from '#lib/photos/photo-schemas';
import type { ResultMembers } from '#lib/platform/schema-parts';
import { getPerson, personIdOfCode } from '#lib/persons/store/persons';
import { listPhotos } from '#lib/photos/store/photos';
import type { Tenant } from '#lib/tenants/store/tenants';
import { DomainError } from '#lib/platform/domain-error';
import { emailKey } from '#lib/platform/email-address';
import type { GalleryConfiguration } from '#lib/galleries/rules/gallery-model';
import type { Person } from '#lib/persons/rules/person-model';
import { signPhotos, signedPhotoView } from '#lib/photos/person-photos';

/** A person ID no person has: read in place of the person when the code is unknown, so both cases cost the same reads. */
const NO_PERSON_ID = 'per_00000000000000000000000000';

/** The second factor a participant proves the code with. */
type SecondFactor = { kind: 'email'; value: string } | { kind: 'employeeId'; value: string } | undefined;

/** The email when one is given; else the employee ID. */
function secondFactorOf(request: MyPhotosInput): SecondFactor {
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

/**
 * `myPhotos` in the gallery `configuration`: the photos of the participant with this access
 * code and second factor, the email, or the employee ID where the person has no email (the
 * body parsed by parseMyPhotos), in the order they were taken. Each photo with a signed URL, as the server-side photos route signs them, but
 * without person or photo IDs: the participant needs the file, its name and size. Every wrong
 * pair (unknown code, another email or employee ID, an employee ID where the person has an
 * email, no factor at all) is the one refusal unknown_access_pair; an unknown code reads as much
 * as a known one. The attempt limits are the pipeline's (lib/http/public-rate-limit.ts).
 * The person's ID comes with the answer, not in it: the caller names it to the idempotency
 * record, which erasure finds by it.
 */
export async function participantPhotos(
  tenant: Tenant,
  configuration: GalleryConfiguration,
  request: MyPhotosInput,
): Promise<{ personId: string; answer: ResultMembers<typeof ParticipantPhotos> }> {
  const factor = secondFactorOf(request);
  if (!factor) throw new DomainError('unknown_access_pair');
  const scope = { tenantId: tenant.tenantId, token: configuration.gallery.token };
  const personId = await personIdOfCode(scope, request.code);
  const person = await getPerson(scope, personId ?? NO_PERSON_ID);
  const matches = factorMatches(person, factor);
  if (!person || !matches) throw new DomainError('unknown_access_pair');
  const signed = await signPhotos(await listPhotos(scope, person.personId));
  const answer = {
    name: person.name,
    // A participant has no use for internal IDs.
    photos: signed.photos.map((signed) => {
      const { photoId: _photoId, ...view } = signedPhotoView(signed);
      return view;
    }),
    urlsExpireAt: signed.urlsExpireAt,
  };
  return { personId: person.personId, answer };
}
