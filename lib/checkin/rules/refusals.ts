/**
 * Why check-in refuses an operation: its reasons, added to the service's DomainErrorReasons
 * (lib/platform/domain-error.ts). The edge answers each with its catalogue code
 * (lib/http/domain-error-mapping.ts).
 */
declare module '#lib/platform/domain-error' {
  interface DomainErrorReasons {
    name_required: true;
    email_required: true;
    consent_required: true;
    selfie_required: true;
    invalid_selfie: true;
    selfie_too_large: true;
    terms_not_accepted: true;
    /** The gallery's check-in policy does not let this participant in. */
    email_domain_not_allowed: true;
    not_on_guest_list: true;
    invitation_required: true;
    /** The address checked in for free as often as the gallery allows. */
    email_checkin_limit: true;
  }
}

export {};
