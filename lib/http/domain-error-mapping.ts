import type { DomainError, DomainErrorReason } from '#lib/platform/domain-error';
import { ApiError, type ErrorCode } from '#lib/http/errors';

/**
 * The one place a domain refusal becomes an API error: each reason's catalogue code (and so
 * its HTTP status). Several reasons share a code where the caller's remedy is the same: every
 * "nothing was kept, retry" reason is 503 storage_unavailable.
 */
export const ERROR_CODE_OF_REASON = {
  invalid_action: 'invalid_action',
  token_required: 'token_required',
  name_required: 'name_required',
  email_required: 'email_required',
  invalid_field: 'invalid_field',
  invalid_parameter: 'invalid_parameter',
  consent_required: 'consent_required',
  invalid_custom_field: 'invalid_custom_field',
  selfie_required: 'selfie_required',
  invalid_selfie: 'invalid_selfie',
  selfie_too_large: 'selfie_too_large',
  persons_required: 'persons_required',
  too_many_persons: 'too_many_persons',
  files_required: 'files_required',
  too_many_files: 'too_many_files',
  terms_not_accepted: 'terms_not_accepted',
  email_domain_not_allowed: 'email_domain_not_allowed',
  not_on_guest_list: 'not_on_guest_list',
  invitation_required: 'invitation_required',
  unknown_gallery: 'gallery_not_found',
  not_a_group_shoot: 'not_a_groupshoot_gallery',
  unknown_person: 'person_not_found',
  unknown_photo: 'photo_not_found',
  unknown_shooting_day: 'invalid_shooting_day',
  unknown_package: 'package_not_found',
  unknown_checkout_token: 'invalid_checkout_token',
  unknown_access_pair: 'photos_not_found',
  hr_export_not_found: 'hr_export_not_found',
  invalid_photo_link: 'photo_link_invalid',
  unsubscribe_link_invalid: 'unsubscribe_link_invalid',
  photo_lookup_by_code_off: 'photo_lookup_by_code_disabled',
  shooting_day_full: 'shooting_day_full',
  order_already_paid: 'order_already_paid',
  reservation_changed: 'storage_unavailable',
  access_codes_exhausted: 'storage_unavailable',
  email_checkin_limit: 'email_checkin_limit',
  retry_limit_reached: 'retry_limit_reached',
  pending_payments_limit: 'pending_payments_limit',
  reservation_exists: 'reservation_exists',
  hr_export_consent_not_asked: 'hr_export_consent_not_asked',
  payment_access_not_approved: 'payment_access_not_approved',
  payment_account_not_ready: 'connect_not_ready_for_payments',
  package_amount_exceeds_limit: 'package_amount_exceeds_limit',
  media_storage_unavailable: 'storage_unavailable',
  payment_provider_unavailable: 'payment_provider_unavailable',
  payment_provider_busy: 'rate_limit_exceeded',
  photo_signing_unavailable: 'cdn_signing_unavailable',
} as const satisfies Record<DomainErrorReason, ErrorCode>;

/** The API error a domain refusal is answered with: its code, its sentence (or the catalogue's), its subject and when to retry. */
export function apiErrorOf(error: DomainError): ApiError {
  const { field, key, parameter } = error.subject;
  const details = { ...(field ? { field } : {}), ...(key ? { key } : {}), ...(parameter ? { parameter } : {}) };
  const headers: Record<string, string> =
    error.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(error.retryAfterSeconds) };
  return new ApiError(ERROR_CODE_OF_REASON[error.reason], error.hasMessage ? error.message : undefined, {
    details,
    headers,
  });
}
