/**
 * Why payments refuses an operation: its reasons, added to the service's DomainErrorReasons
 * (lib/platform/domain-error.ts). The edge answers each with its catalogue code
 * (lib/http/domain-error-mapping.ts).
 */
declare module '#lib/platform/domain-error' {
  interface DomainErrorReasons {
    unknown_checkout_token: true;
    order_already_paid: true;
    /** The reservation changed while the operation ran; nothing was kept. */
    reservation_changed: true;
    retry_limit_reached: true;
    reservation_exists: true;
    /** The studio cannot take this payment. */
    payment_access_not_approved: true;
    payment_account_not_ready: true;
    package_amount_exceeds_limit: true;
    /** The payment provider failed; nothing was kept. */
    payment_provider_unavailable: true;
    /** The platform's Stripe calls are at their limit (stripe-call-limit.ts); nothing was kept, retry after the wait. */
    payment_provider_busy: true;
  }
}

export {};
