import { countersOfDay } from '#lib/galleries/store/day-bookings';
import { nowIso } from '#lib/platform/clock';
import { insertCheckedInPerson } from '#lib/checkin/store/checkins';
import { addToGalleryCounters } from '#lib/galleries/store/gallery-counters';
import type { SubmitCheckinInput, SubmitCheckinResult } from '#lib/checkin/checkin-schemas';
import type { ResultMembers } from '#lib/platform/schema-parts';
import type { Tenant } from '#lib/tenants/store/tenants';
import { type CheckinSubmission, validateCheckin } from '#lib/checkin/rules/checkin-request';
import { checkinPolicyOf } from '#lib/galleries/rules/checkin-policy';
import { type Guest, checkGuestList } from '#lib/checkin/guest-list-check';
import { completeImportedPerson } from '#lib/checkin/store/imported-checkins';
import { releaseClaim } from '#lib/persons/store/imported-completion';
import { completedPerson } from '#lib/persons/rules/imported-completion';
import { DomainError } from '#lib/platform/domain-error';
import { type GalleryConfiguration, type GalleryPackage, requiresPayment } from '#lib/galleries/rules/gallery-model';
import { selfieObjectKey } from '#lib/platform/media-keys';
import { pendingPaymentsCap, publicLimitsOf } from '#lib/galleries/rules/public-limits';
import { type PersonDraft, newPersonId } from '#lib/persons/rules/person-model';
import { reencodeSelfie } from '#lib/checkin/adapters/selfie-image';
import { galleryRef, loggableError, logger } from '#lib/platform/logger';
import { checkPaidCheckin } from '#lib/checkin/paid-package';
import { returnUrlOf } from '#lib/payments/checkout-urls';

/** The S3 client is loaded with the first selfie: most check-ins send none, and loading it costs cold-start time. */
const mediaBucket = () => import('#lib/platform/media-bucket');

/**
 * A participant's check-in to the gallery `configuration` (its body parsed by
 * parseSubmitCheckin): validates it against the gallery, re-encodes the selfie (no
 * metadata survives, see reencodeSelfie), stores it, then the person, code and day booking in
 * one transaction, or for a paid package a reservation with a Checkout Session. In an
 * `importedOnly` gallery it checks the guest list first, and a check-in of an invited person
 * completes that person instead of creating one (a paid one once it is paid). Should that fail, the selfie is
 * deleted again (and the person's claim released), so a failed check-in leaves nothing behind.
 */
export async function submitCheckin(
  tenant: Tenant,
  configuration: GalleryConfiguration,
  request: SubmitCheckinInput,
): Promise<ResultMembers<typeof SubmitCheckinResult>> {
  const submission = validateCheckin(request, configuration);
  // Decoding is the one costly check: after every rule that needs no storage, before the
  // payment checks read anything.
  const selfie = submission.selfieAsSent ? await reencodeSelfie(submission.selfieAsSent) : undefined;
  const paidPackage =
    submission.selectedPackage && requiresPayment(submission.selectedPackage) ? submission.selectedPackage : undefined;
  const scope = { tenantId: tenant.tenantId, token: configuration.gallery.token };
  const guest =
    checkinPolicyOf(configuration.gallery.checkinPolicy).mode === 'importedOnly'
      ? await checkGuestList(tenant, configuration, submission, { claim: !paidPackage, invitation: request.invitation })
      : undefined;
  try {
    return await storeCheckin({ tenant, configuration, request, submission, selfie, paidPackage, guest });
  } catch (error) {
    if (guest?.claimId)
      await releaseClaim(scope, guest.person.personId, guest.claimId).catch((cleanup: Error) =>
        logger.error('check-in claim not released', { error: loggableError(cleanup) }),
      );
    throw error;
  }
}

/**
 * The payment checks and the writes of a check-in that passed every rule: a person created, or
 * the imported person `guest` completed, or a reservation for a paid package.
 */
async function storeCheckin(checkin: {
  tenant: Tenant;
  configuration: GalleryConfiguration;
  request: SubmitCheckinInput;
  submission: CheckinSubmission;
  selfie: Buffer | undefined;
  paidPackage: GalleryPackage | undefined;
  guest: Guest | undefined;
}): Promise<ResultMembers<typeof SubmitCheckinResult>> {
  const { tenant, configuration, request, submission, selfie, paidPackage, guest } = checkin;
  const limits = publicLimitsOf(configuration.gallery.publicLimits);
  const accountId = paidPackage ? await checkPaidCheckin(tenant, submission, paidPackage) : undefined;
  const returnUrl = paidPackage ? returnUrlOf(request.returnUrl, tenant) : undefined;

  const scope = { tenantId: tenant.tenantId, token: configuration.gallery.token };
  // A paid check-in's person is its reservation's until the payment completes the invitee.
  const claimed = guest?.claimId ? { person: guest.person, claimId: guest.claimId } : undefined;
  const personId = claimed?.person.personId ?? newPersonId();
  const selfieKey = selfie ? selfieObjectKey(scope.tenantId, scope.token, personId) : undefined;
  if (selfie && selfieKey) {
    await (await mediaBucket()).putMediaObject(selfieKey, selfie, 'image/jpeg').catch((error: Error) => {
      logger.error('selfie upload failed', { personId, error: loggableError(error) });
      throw new DomainError('media_storage_unavailable');
    });
  }
  const draft: PersonDraft = {
    personId,
    name: submission.name,
    email: submission.email,
    employeeId: submission.employeeId,
    phone: submission.phone,
    department: submission.department,
    notes: submission.notes,
    shootingDayId: submission.shootingDay?.id ?? null,
    packageId: submission.selectedPackage?.id ?? null,
    orderNotes: submission.orderNotes,
    consents: submission.consents,
    customFields: submission.customFields,
    language: submission.language,
    source: 'checkin',
    createdAt: nowIso(),
    hasSelfie: selfieKey !== undefined,
    photoCount: 0,
  };
  try {
    if (paidPackage && accountId && returnUrl) {
      const pendingCap = pendingPaymentsCap(limits, submission.shootingDay?.maxPersons);
      const invitee = guest
        ? { personId: guest.person.personId, shootingDayId: guest.person.shootingDayId }
        : undefined;
      // The paid check-in's code (orders, Checkout) is loaded at the first paid check-in an instance takes.
      const { startPaidCheckin } = await import('#lib/payments/checkout');
      return await startPaidCheckin({
        tenant,
        galleryToken: scope.token,
        draft,
        pkg: paidPackage,
        accountId,
        returnUrl,
        pendingPaymentsCap: pendingCap,
        invitee,
      });
    }
    const person = claimed
      ? await completeImportedPerson(scope, claimed.person, completedPerson(claimed.person, draft), {
          claimId: claimed.claimId,
          checkinsPerEmail: limits.checkinsPerEmail,
          existingDayIds: new Set(configuration.shootingDays.map((day) => day.id)),
          dayCounters: submission.shootingDay && countersOfDay(submission.shootingDay),
        })
      : await insertCheckedInPerson(
          scope,
          draft,
          limits.checkinsPerEmail,
          submission.shootingDay && countersOfDay(submission.shootingDay),
        );
    // A completed imported person stays counted as imported.
    const counted = claimed
      ? { personsWithSelfie: selfieKey && !claimed.person.hasSelfie ? 1 : 0 }
      : { personsCheckedIn: 1, personsWithSelfie: selfieKey ? 1 : 0 };
    await addToGalleryCounters(scope, counted).catch((error: Error) =>
      logger.error('check-in counters not updated', { personId, error: loggableError(error) }),
    );
    return { personId: person.personId, code: person.code, name: person.name };
  } catch (error) {
    if (selfieKey) {
      await (await mediaBucket()).deleteMediaObject(selfieKey).catch((cleanup: Error) =>
        logger.error('orphaned selfie could not be deleted', {
          gallery: galleryRef(scope.token),
          personId,
          error: loggableError(cleanup),
        }),
      );
    }
    throw error;
  }
}
