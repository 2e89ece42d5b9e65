/**
 * Why the service refuses an operation, in the domain's own words. The domain, data access,
 * adapters and use cases raise DomainError and know nothing of HTTP; the HTTP edge turns each
 * reason into its catalogue code and status in one table (lib/http/domain-error-mapping.ts).
 */
export type DomainErrorReason =
  // The request does not follow the input rules.
  | 'invalid_action'
  | 'token_required'
  | 'name_required'
  | 'email_required'
  | 'invalid_field'
  | 'invalid_parameter'
  | 'consent_required'
  | 'invalid_custom_field'
  | 'selfie_required'
  | 'invalid_selfie'
  | 'selfie_too_large'
  | 'persons_required'
  | 'too_many_persons'
  | 'files_required'
  | 'too_many_files'
  | 'terms_not_accepted'
  // The gallery's check-in policy does not let this participant in.
  | 'email_domain_not_allowed'
  | 'not_on_guest_list'
  | 'invitation_required'
  // It names something the tenant does not have.
  | 'unknown_gallery'
  | 'not_a_group_shoot'
  | 'unknown_person'
  // A photo that is not one of the person's in this gallery (another person's, gallery's or tenant's, or none).
  | 'unknown_photo'
  | 'unknown_shooting_day'
  | 'unknown_package'
  | 'unknown_checkout_token'
  // An access code with a second factor (email or employee ID) that no participant of the gallery has: one answer for every wrong pair.
  | 'unknown_access_pair'
  // An HR export ID the gallery does not have (another gallery's or tenant's included).
  | 'hr_export_not_found'
  // A photo link that is malformed, forged, of another gallery, expired, or whose person was erased.
  | 'invalid_photo_link'
  // A lookup by access code where the gallery does not take that way in (a photo link by email is the way).
  | 'photo_lookup_by_code_off'
  // The state of what it changes does not allow it.
  | 'shooting_day_full'
  | 'order_already_paid'
  | 'reservation_changed'
  | 'access_codes_exhausted'
  | 'email_checkin_limit'
  | 'retry_limit_reached'
  | 'pending_payments_limit'
  | 'reservation_exists'
  // An HR export of a gallery whose check-in never asked for the HR consent: nobody agreed to it.
  | 'hr_export_consent_not_asked'
  // The studio cannot take this payment.
  | 'payment_access_not_approved'
  | 'payment_account_not_ready'
  | 'package_amount_exceeds_limit'
  // A service the operation depends on failed; nothing was kept.
  | 'media_storage_unavailable'
  | 'payment_provider_unavailable'
  | 'photo_signing_unavailable';

/** What a refusal is about, where one member of the input is to blame. */
export interface DomainErrorSubject {
  /** A body member (invalid_field). */
  field?: string;
  /** A form-field key (invalid_custom_field). */
  key?: string;
  /** A query parameter (invalid_parameter). */
  parameter?: string;
}

export class DomainError extends Error {
  /**
   * @param reason why the operation is refused
   * @param message a sentence for the caller; without one, the edge uses its catalogue's
   * @param subject the member of the input to blame, if any
   */
  constructor(
    readonly reason: DomainErrorReason,
    message?: string,
    readonly subject: Readonly<DomainErrorSubject> = {},
  ) {
    super(message ?? '');
    this.name = 'DomainError';
  }

  /** Whether the caller was given a sentence of its own (else the catalogue's message applies). */
  get hasMessage(): boolean {
    return this.message !== '';
  }
}

/** invalid_field for one body member. */
export function invalidField(field: string, message: string): DomainError {
  return new DomainError('invalid_field', message, { field });
}
