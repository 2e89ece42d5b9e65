/**
 * Why photos refuses an operation: its reasons, added to the service's DomainErrorReasons
 * (lib/platform/domain-error.ts). The edge answers each with its catalogue code
 * (lib/http/domain-error-mapping.ts).
 */
declare module '#lib/platform/domain-error' {
  interface DomainErrorReasons {
    files_required: true;
    too_many_files: true;
    /** A photo that is not one of the person's in this gallery (another person's, gallery's or tenant's, or none). */
    unknown_photo: true;
    /** An access code with a second factor (email or employee ID) that no participant of the gallery has: one answer for every wrong pair. */
    unknown_access_pair: true;
    /** A photo link that is malformed, forged, of another gallery, expired, or whose person was erased. */
    invalid_photo_link: true;
    /** A lookup by access code where the gallery does not take that way in (a photo link by email is the way). */
    photo_lookup_by_code_off: true;
    /** The photo URLs could not be signed; nothing was kept. */
    photo_signing_unavailable: true;
  }
}

export {};
