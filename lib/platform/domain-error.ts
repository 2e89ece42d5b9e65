/**
 * Why the service refuses an operation, in the domain's own words. The domain, data access,
 * adapters and use cases raise DomainError and know nothing of HTTP; the HTTP edge turns each
 * reason into its catalogue code and status in one table (lib/http/domain-error-mapping.ts).
 *
 * The kernel declares only the reasons any operation may have; each feature adds its own to this
 * interface in its `rules/refusals.ts` (TypeScript merges them), so a reason lives with the
 * feature it is about (any feature may raise it), and the edge's table, which must name every
 * reason, composes them.
 */
export interface DomainErrorReasons {
  /** The request names an action that nobody takes. */
  invalid_action: true;
  /** A body member that does not follow the input rules. */
  invalid_field: true;
  /** A query parameter that does not follow the input rules. */
  invalid_parameter: true;
  /** The media storage failed; nothing was kept. */
  media_storage_unavailable: true;
}

export type DomainErrorReason = keyof DomainErrorReasons;

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
   * @param retryAfterSeconds when the same request can succeed (a limit of the service's own), if it can
   */
  constructor(
    readonly reason: DomainErrorReason,
    message?: string,
    readonly subject: Readonly<DomainErrorSubject> = {},
    readonly retryAfterSeconds?: number,
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
