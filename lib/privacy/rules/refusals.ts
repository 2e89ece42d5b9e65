/**
 * Why privacy refuses an operation: its reasons, added to the service's DomainErrorReasons
 * (lib/platform/domain-error.ts). The edge answers each with its catalogue code
 * (lib/http/domain-error-mapping.ts).
 */
declare module '#lib/platform/domain-error' {
  interface DomainErrorReasons {
    /** An unsubscribe link that is malformed, forged, expired, or whose person was erased. */
    unsubscribe_link_invalid: true;
  }
}

export {};
