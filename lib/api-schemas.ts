import * as v from 'valibot';
import { ACCESS_CODE_LENGTH } from '#lib/domain/access-codes';
import { CHECKOUT_TOKEN_MAX_LENGTH, MAX_PERSONS_PER_IMPORT, MAX_SELFIE_BYTES, MAX_SELFIE_PIXELS, RETURN_URL_MAX_LENGTH, TEXT_LIMITS, mebibytes } from '#lib/domain/field-limits';

/**
 * The request and response bodies of the API as valibot schemas: the source of the OpenAPI
 * document's component schemas (scripts/openapi/build-openapi.ts). Tests validate recorded
 * real answers against the document, so these cannot drift from what the functions send.
 */
const nullableString = v.nullable(v.string());
const requestId = v.pipe(v.string(), v.description('Also in the X-Request-Id header.'));

export const ErrorBody = v.object({
  ok: v.literal(false),
  error: v.pipe(v.string(), v.description('A stable error code; see the error table.')),
  message: v.string(),
  requestId,
  field: v.optional(v.pipe(v.string(), v.description('invalid_field: the field concerned.'))),
  key: v.optional(v.pipe(v.string(), v.description('invalid_custom_field: the form-field key concerned.'))),
  parameter: v.optional(v.pipe(v.string(), v.description('invalid_parameter: the query parameter concerned.'))),
});

export const ShootingDay = v.object({
  id: v.string(),
  date: v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/)),
  label: v.string(),
  startTime: v.pipe(v.string(), v.regex(/^\d{2}:\d{2}$/)),
  endTime: v.pipe(v.string(), v.regex(/^\d{2}:\d{2}$/)),
  maxPersons: v.optional(v.number()),
  spotsRemaining: v.optional(v.pipe(v.number(), v.description('Present when a capacity is configured.'))),
  booked: v.optional(v.pipe(v.number(), v.description('Server-side days endpoint only.'))),
});

export const FormField = v.object({
  key: v.pipe(v.string(), v.description('employeeId, phone, department, notes, or custom-<uuid>.')),
  label: v.string(),
  type: v.picklist(['text', 'textarea', 'number', 'select']),
  required: v.boolean(),
  options: v.optional(v.array(v.object({ value: v.string(), label: v.string() }))),
});

export const Package = v.object({
  id: v.string(),
  name: v.string(),
  description: v.string(),
  price: v.pipe(v.number(), v.description('Minor units of the currency (cents).')),
  currency: v.string(),
  requiresPayment: v.boolean(),
});

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

/** myPhotos: the participant's photos, without person or photo IDs. */
/** A photo with its signed URL, as the server-side photos route answers it (a participant's own view leaves out the ID). */
const SignedPhoto = v.object({
  photoId: v.string(),
  fileName: v.string(),
  width: v.nullable(v.number()),
  height: v.nullable(v.number()),
  createdAt: v.string(),
  url: v.pipe(v.string(), v.description('Signed CloudFront URL.')),
});

export const ParticipantPhotos = v.object({
  ok: v.literal(true),
  name: v.pipe(v.string(), v.description("The participant's name, as checked in or imported.")),
  urlsExpireAt: v.string(),
  photos: v.array(v.omit(SignedPhoto, ['photoId'])),
  requestId,
});

export const CheckinResult = v.union([
  v.object({ ok: v.literal(true), personId: v.string(), code: v.string(), name: v.string(), requestId }),
  v.object({
    ok: v.literal(true),
    orderId: v.string(),
    checkoutUrl: v.string(),
    statusToken: v.string(),
    retryToken: v.string(),
    packageName: v.string(),
    requestId,
  }),
  v.object({
    ok: v.literal(true),
    orderId: v.string(),
    status: v.picklist(['pending', 'paid', 'expired', 'canceled']),
    packageName: v.string(),
    personId: v.optional(v.string()),
    code: v.optional(v.string()),
    name: v.optional(v.string()),
    requestId,
  }),
  ParticipantPhotos,
]);

export const ImportRequest = v.object({
  persons: v.pipe(
    v.array(
      v.object({
        name: v.pipe(v.string(), v.maxLength(TEXT_LIMITS.name)),
        email: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(TEXT_LIMITS.email)))),
        employeeId: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(TEXT_LIMITS.employeeId)))),
        shootingDayId: v.optional(v.nullable(v.string())),
      }),
    ),
    v.minLength(1),
    v.maxLength(MAX_PERSONS_PER_IMPORT),
  ),
});

export const ImportedPerson = v.object({
  personId: v.string(),
  name: v.string(),
  email: nullableString,
  employeeId: nullableString,
  shootingDayId: nullableString,
  code: v.pipe(v.string(), v.length(4)),
});

export const ImportResult = v.object({
  ok: v.literal(true),
  requestId,
  galleryToken: v.string(),
  imported: v.number(),
  skipped: v.number(),
  persons: v.array(ImportedPerson),
  skippedDetails: v.optional(v.array(v.object({ index: v.number(), reason: v.string() }))),
});

export const Person = v.object({
  personId: v.string(),
  name: v.string(),
  email: nullableString,
  employeeId: nullableString,
  phone: nullableString,
  department: nullableString,
  notes: nullableString,
  shootingDayId: nullableString,
  packageId: nullableString,
  orderNotes: nullableString,
  code: v.string(),
  consentGiven: v.nullable(v.boolean()),
  faceConsent: v.nullable(v.boolean()),
  notificationConsent: v.nullable(v.boolean()),
  hrExportConsent: v.nullable(v.boolean()),
  customFields: v.record(v.string(), v.union([v.string(), v.number()])),
  source: v.picklist(['import', 'checkin']),
  createdAt: v.string(),
  hasSelfie: v.boolean(),
  photoCount: v.number(),
});

export const PersonsPage = v.object({
  ok: v.literal(true),
  galleryToken: v.string(),
  persons: v.array(Person),
  nextCursor: nullableString,
  requestId,
});

export const PersonPhotos = v.object({
  ok: v.literal(true),
  galleryToken: v.string(),
  personId: v.string(),
  urlsExpireAt: v.string(),
  photos: v.array(SignedPhoto),
  requestId,
});

export const FormFields = v.object({ ok: v.literal(true), galleryToken: v.string(), formFields: v.array(FormField), requestId });
export const ShootingDays = v.object({ ok: v.literal(true), galleryToken: v.string(), shootingDays: v.array(ShootingDay), requestId });

const counts = (...names: string[]) => v.object(Object.fromEntries(names.map((name) => [name, v.number()])));
export const GalleryStats = v.object({
  ok: v.literal(true),
  galleryToken: v.string(),
  persons: v.object({ total: v.number(), bySource: counts('import', 'checkin'), withSelfie: v.number(), withPhotos: v.number() }),
  photos: counts('total', 'unassigned', 'cards'),
  orders: counts('pending', 'paid', 'expired', 'canceled'),
  shootingDays: v.array(
    v.object({
      id: v.string(),
      date: v.string(),
      label: v.string(),
      booked: v.number(),
      maxPersons: v.nullable(v.number()),
      spotsRemaining: v.nullable(v.number()),
    }),
  ),
  capacity: counts('configured', 'booked', 'daysWithoutCapacity'),
  requestId,
});

export const WebhookResult = v.object({ ok: v.literal(true), received: v.literal(true), outcome: v.string(), requestId });

/**
 * What a use case returns for a 200 answer: the documented body without `ok` and `requestId`,
 * which the pipeline adds. Typing results so keeps them from drifting from the document.
 */
export type ResultMembers<Schema extends v.GenericSchema> =
  v.InferOutput<Schema> extends infer Body ? (Body extends unknown ? Omit<Body, 'ok' | 'requestId'> : never) : never;

/** Component schemas by name, as the OpenAPI document names them. */
export const API_SCHEMAS = {
  ErrorBody,
  ShootingDay,
  FormField,
  Package,
  CheckinInfo,
  CheckinRequest,
  ParticipantPhotos,
  CheckinResult,
  ImportRequest,
  ImportedPerson,
  ImportResult,
  Person,
  PersonsPage,
  PersonPhotos,
  FormFields,
  ShootingDays,
  GalleryStats,
  WebhookResult,
};

/** Request and 200 response schema of each route, by route ID. */
export const ROUTE_SCHEMAS: Record<string, { request?: keyof typeof API_SCHEMAS; response?: keyof typeof API_SCHEMAS }> = {
  getCheckinInfo: { response: 'CheckinInfo' },
  submitCheckin: { request: 'CheckinRequest', response: 'CheckinResult' },
  listFormFields: { response: 'FormFields' },
  listPersons: { response: 'PersonsPage' },
  importPersons: { request: 'ImportRequest', response: 'ImportResult' },
  listPersonPhotos: { response: 'PersonPhotos' },
  listShootingDays: { response: 'ShootingDays' },
  getGalleryStats: { response: 'GalleryStats' },
  stripeWebhook: { response: 'WebhookResult' },
};
