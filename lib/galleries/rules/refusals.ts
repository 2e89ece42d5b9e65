/**
 * Why galleries refuses an operation: its reasons, added to the service's DomainErrorReasons
 * (lib/platform/domain-error.ts). The edge answers each with its catalogue code
 * (lib/http/domain-error-mapping.ts).
 */
declare module '#lib/platform/domain-error' {
  interface DomainErrorReasons {
    /** The request names no gallery token. */
    token_required: true;
    /** It names a gallery the tenant does not have. */
    unknown_gallery: true;
    /** The gallery is not a group shoot. */
    not_a_group_shoot: true;
    /** A shooting day the gallery does not have. */
    unknown_shooting_day: true;
    /** A package the gallery does not offer. */
    unknown_package: true;
    /** A value that the gallery's form field does not accept. */
    invalid_custom_field: true;
    /** The day has no spot left. */
    shooting_day_full: true;
    /** The day holds as many spots waiting for payment as it allows. */
    pending_payments_limit: true;
  }
}

export {};
