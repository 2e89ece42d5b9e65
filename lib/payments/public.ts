/**
 * The public face of payments: the modules of lib/payments/ that code outside it (other features,
 * the edge, other features' handlers, infra/ and scripts/) may import. Everything else in the folder
 * is the feature's own, and the boundary check (.dependency-cruiser.cjs) fails on an import of it
 * from outside. Tests may reach any module (docs/architecture.md#boundaries).
 */
export const PUBLIC_MODULES = [
  'adapters/stripe-payments',
  'checkout',
  'checkout-urls',
  'payment-schemas',
  'payment-settings',
  'reservation-sweep',
  'rules/order-lifecycle',
  'rules/payment-limits',
  'rules/stripe-call-limit',
  'store/checkout-tokens',
  'store/order-erasure',
  'store/order-pointers',
  'stripe-call-limit',
] as const;
