/**
 * Why HR exports refuses an operation: its reasons, added to the service's DomainErrorReasons
 * (lib/platform/domain-error.ts). The edge answers each with its catalogue code
 * (lib/http/domain-error-mapping.ts).
 */
declare module '#lib/platform/domain-error' {
  interface DomainErrorReasons {
    /** An HR export ID the gallery does not have (another gallery's or tenant's included). */
    hr_export_not_found: true;
    /** An HR export of a gallery whose check-in never asked for the HR consent: nobody agreed to it. */
    hr_export_consent_not_asked: true;
  }
}

export {};
