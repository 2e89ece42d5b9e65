import { MAX_FILES_PER_UPLOAD_REQUEST } from '#lib/photos/common/rules/photo-limits';
import { MAX_PERSONS_PER_IMPORT } from '#lib/persons/rules/person-limits';
import { MAX_SELFIE_BYTES } from '#lib/checkin/rules/checkin-limits';
import { mebibytes } from '#lib/platform/byte-sizes';

/**
 * The error catalogue: every error code the API can answer with, its HTTP status and its
 * default message. It is the one place the README's error table and the OpenAPI document
 * are checked against, so a new code is added here first.
 */
export const ERROR_CATALOG = {
  missing_tenant_slug: { status: 400, message: 'The X-Tenant-Slug header is required.' },
  invalid_tenant: { status: 400, message: 'The tenant slug cannot be resolved.' },
  not_a_groupshoot_gallery: { status: 400, message: 'This gallery is not a group shoot gallery.' },
  token_required: { status: 400, message: 'A gallery token is required.' },
  name_required: { status: 400, message: 'A name is required.' },
  email_required: { status: 400, message: 'An email address is required.' },
  terms_not_accepted: { status: 400, message: 'The terms of the paid package must be accepted.' },
  connect_not_ready_for_payments: {
    status: 400,
    message: 'The payment account of this studio is not ready for package checkout.',
  },
  payment_access_not_approved: { status: 400, message: 'Package payments are not approved for this studio.' },
  package_amount_exceeds_limit: {
    status: 400,
    message: 'The selected package exceeds the allowed transaction limit.',
  },
  invalid_json: { status: 400, message: 'The request body is not valid JSON.' },
  invalid_parameter: { status: 400, message: 'A query parameter has an invalid value.' },
  invalid_checkout_token: { status: 404, message: 'No reservation has this token.' },
  invalid_signature: { status: 400, message: 'The webhook signature does not match its body.' },
  invalid_idempotency_key: { status: 400, message: 'Idempotency-Key must be 1 to 255 printable ASCII characters.' },
  invalid_action: { status: 400, message: 'The body member action must be one of the check-in actions.' },
  invalid_field: { status: 400, message: 'A field is too long or of the wrong type.' },
  consent_required: { status: 400, message: 'This gallery needs the participant to accept the consent text.' },
  invalid_custom_field: { status: 400, message: 'A custom field value is missing or invalid.' },
  selfie_required: { status: 400, message: 'This gallery needs a selfie.' },
  invalid_selfie: { status: 400, message: 'The selfie must be a JPEG image, as base64 or a data URI.' },
  invalid_shooting_day: { status: 400, message: 'The gallery has no shooting day with this ID.' },
  package_not_found: { status: 400, message: 'The gallery has no package with this ID.' },
  persons_required: { status: 400, message: 'A non-empty persons array is required.' },
  too_many_persons: {
    status: 400,
    message: `At most ${MAX_PERSONS_PER_IMPORT} persons can be imported in one request.`,
  },
  files_required: { status: 400, message: 'A non-empty files array is required.' },
  too_many_files: {
    status: 400,
    message: `At most ${MAX_FILES_PER_UPLOAD_REQUEST} files can be named in one request.`,
  },
  api_key_required: { status: 401, message: 'An API key is required (Authorization: Bearer <key> or X-Api-Key).' },
  invalid_api_key: { status: 401, message: 'The API key is wrong, revoked or disabled.' },
  direct_access_forbidden: {
    status: 403,
    message: "Requests must come through the API's own address; this one came around its front.",
  },
  photo_link_invalid: {
    status: 403,
    message: 'This photo link is expired or not valid; ask for a new one with your email address.',
  },
  unsubscribe_link_invalid: {
    status: 403,
    message:
      'This unsubscribe link is expired or not valid; the page your photo link opens withdraws your consents too.',
  },
  photo_lookup_by_code_disabled: {
    status: 403,
    message: 'This gallery does not open photos by access code this way; ask for a photo link with your email address.',
  },
  plan_upgrade_required: {
    status: 403,
    message: 'The integration API needs the Creator plan or a higher one.',
  },
  email_domain_not_allowed: {
    status: 403,
    message: 'This gallery takes check-ins only from email addresses at the domains it names.',
  },
  invitation_required: {
    status: 403,
    message:
      "You are on this gallery's guest list: check in with the personal link emailed to your address. A new link goes out at most every 5 minutes.",
  },
  not_on_guest_list: {
    status: 403,
    message:
      'This gallery takes check-ins only from the persons invited to it; use the email address or employee ID your organisation gave the studio.',
  },
  not_found: { status: 404, message: 'No endpoint exists at this path.' },
  gallery_not_found: { status: 404, message: 'No gallery exists with this token.' },
  person_not_found: { status: 404, message: 'No person exists with this ID in this gallery.' },
  photo_not_found: { status: 404, message: 'The person has no photo with this ID in this gallery.' },
  photos_not_found: {
    status: 404,
    message: 'No participant of this gallery has this access code with this email address or employee ID.',
  },
  hr_export_not_found: { status: 404, message: 'This gallery has no HR export with this ID.' },
  method_not_allowed: { status: 405, message: 'This method is not allowed on this endpoint.' },
  shooting_day_full: { status: 409, message: 'The selected shooting day is fully booked.' },
  idempotency_key_in_use: {
    status: 409,
    message: 'A request with this Idempotency-Key is still being processed; retry shortly.',
  },
  order_already_paid: { status: 409, message: 'This reservation is paid already; ask for its status instead.' },
  email_checkin_limit: {
    status: 409,
    message: 'This email address has checked in to this gallery as often as it may.',
  },
  reservation_exists: {
    status: 409,
    message:
      'This email address has another reservation waiting for payment in this gallery; complete or retry that one.',
  },
  hr_export_consent_not_asked: {
    status: 409,
    message:
      "This gallery's check-in does not ask for the HR export consent, so nobody agreed to their photos going to their employer; enable it before exporting.",
  },
  retry_limit_reached: { status: 409, message: 'This reservation cannot be retried again; check in again instead.' },
  pending_payments_limit: {
    status: 409,
    message:
      'Too many participants are paying for this shooting day right now; try again in a few minutes or pick another day.',
  },
  idempotency_key_reused: {
    status: 422,
    message: 'This Idempotency-Key was used with a different request body in the last 24 hours.',
  },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  selfie_too_large: { status: 413, message: `The selfie is larger than ${mebibytes(MAX_SELFIE_BYTES)}.` },
  rate_limit_exceeded: { status: 429, message: 'Rate limit exceeded.' },
  cdn_signing_unavailable: { status: 500, message: 'Photo URLs could not be signed; retry.' },
  payment_provider_unavailable: {
    status: 502,
    message: 'The payment provider could not be reached; nothing was reserved. Retry.',
  },
  internal_error: { status: 500, message: 'Internal error; quote the requestId to support.' },
  plan_check_unavailable: { status: 503, message: 'Plan eligibility could not be verified; retry.' },
  storage_unavailable: { status: 503, message: 'Storage is busy or unavailable; nothing was saved. Retry.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

/**
 * An expected failure with a stable, documented code. Anything thrown that is not an
 * ApiError is unexpected and answered as 500 internal_error without its text.
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Extra members of the error body, such as `field` for invalid_field. */
  readonly details: Readonly<Record<string, unknown>>;
  /** Extra response headers, such as `Allow` for method_not_allowed. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    code: ErrorCode,
    message: string = ERROR_CATALOG[code].message,
    options: { details?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = ERROR_CATALOG[code].status;
    this.details = options.details ?? {};
    this.headers = options.headers ?? {};
  }

  toJSON(): Record<string, unknown> {
    return { ok: false, error: this.code, message: this.message, ...this.details };
  }
}
