/**
 * Why persons refuses an operation: its reasons, added to the service's DomainErrorReasons
 * (lib/platform/domain-error.ts). The edge answers each with its catalogue code
 * (lib/http/domain-error-mapping.ts).
 */
declare module '#lib/platform/domain-error' {
  interface DomainErrorReasons {
    persons_required: true;
    too_many_persons: true;
    /** A person the gallery does not have. */
    unknown_person: true;
    /** No free access code was found; nothing was kept, retry. */
    access_codes_exhausted: true;
  }
}

export {};
