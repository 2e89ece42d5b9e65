import * as v from 'valibot';
import { FormField, Package, ShootingDay } from '#lib/galleries/gallery-schemas';
import { CheckoutStarted, OrderStatus } from '#lib/payments/payment-schemas';
import { ACCESS_CODE_LENGTH } from '#lib/persons/rules/access-codes';
import { ParticipantPhotos } from '#lib/photos/photo-schemas';
import { CHECKOUT_TOKEN_MAX_LENGTH, MAX_SELFIE_BYTES, MAX_SELFIE_PIXELS, RETURN_URL_MAX_LENGTH, TEXT_LIMITS, mebibytes } from '#lib/platform/field-limits';
import { nullableString, requestId } from '#lib/platform/schema-parts';

/** The documented bodies of the public check-in routes. */
export const CheckinInfo = v.object({
  ok: v.literal(true),
  galleryName: v.string(),
  selfieEnabled: v.boolean(),
  selfieRequired: v.boolean(),
  consentRequired: v.boolean(),
  tenantSlug: v.string(),
  token: v.string(),
  showShootingDaySelector: v.boolean(),
  shootingDays: v.array(ShootingDay),
  packages: v.array(Package),
  formFields: v.array(FormField),
  consentText: nullableString,
  granularConsents: v.object({ face: v.boolean(), notification: v.boolean(), hrExport: v.boolean() }),
  requestId,
});

export const CheckinRequest = v.object({
  action: v.picklist(['submitCheckin', 'checkinStatus', 'retryCheckout', 'myPhotos']),
  token: v.optional(v.string()),
  name: v.optional(v.pipe(v.string(), v.maxLength(TEXT_LIMITS.name))),
  email: v.optional(v.pipe(v.string(), v.maxLength(TEXT_LIMITS.email), v.description('submitCheckin; myPhotos: the second factor, compared without case.'))),
  employeeId: v.optional(
    v.pipe(v.string(), v.maxLength(TEXT_LIMITS.employeeId), v.description('myPhotos: the second factor where the person has no email (exact; ignored when email is given).')),
  ),
  code: v.optional(v.pipe(v.string(), v.description(`myPhotos: the ${ACCESS_CODE_LENGTH}-character access code; case and surrounding space are ignored.`))),
  phone: v.optional(v.pipe(v.string(), v.maxLength(TEXT_LIMITS.phone))),
  department: v.optional(v.pipe(v.string(), v.maxLength(TEXT_LIMITS.department))),
  notes: v.optional(v.pipe(v.string(), v.maxLength(TEXT_LIMITS.notes))),
  customFields: v.optional(v.record(v.string(), v.union([v.string(), v.number()]))),
  consentGiven: v.optional(v.boolean()),
  faceConsent: v.optional(v.boolean()),
  notificationConsent: v.optional(v.boolean()),
  hrExportConsent: v.optional(v.boolean()),
  shootingDayId: v.optional(v.pipe(v.string(), v.maxLength(TEXT_LIMITS.shootingDayId))),
  selectedPackageId: v.optional(v.pipe(v.string(), v.maxLength(TEXT_LIMITS.selectedPackageId))),
  orderNotes: v.optional(v.pipe(v.string(), v.maxLength(TEXT_LIMITS.orderNotes))),
  termsAccepted: v.optional(v.boolean()),
  selfieBase64: v.optional(
    v.pipe(
      v.string(),
      v.description(
        `JPEG as a data URI or raw base64, at most ${mebibytes(MAX_SELFIE_BYTES)} decoded and ${MAX_SELFIE_PIXELS / 1_000_000} megapixels; ` +
          'stored re-encoded: upright, at most 2048 px on its longer side, without any metadata.',
      ),
    ),
  ),
  returnUrl: v.optional(v.pipe(v.string(), v.maxLength(RETURN_URL_MAX_LENGTH), v.description('Paid packages: the check-in page Stripe returns to.'))),
  statusToken: v.optional(v.pipe(v.string(), v.maxLength(CHECKOUT_TOKEN_MAX_LENGTH), v.description('checkinStatus'))),
  retryToken: v.optional(v.pipe(v.string(), v.maxLength(CHECKOUT_TOKEN_MAX_LENGTH), v.description('retryCheckout'))),
});

export const CheckinResult = v.union([
  v.object({ ok: v.literal(true), personId: v.string(), code: v.string(), name: v.string(), requestId }),
  CheckoutStarted,
  OrderStatus,
  ParticipantPhotos,
]);
