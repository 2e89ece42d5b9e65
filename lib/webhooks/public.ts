/**
 * The public face of webhooks: the modules of lib/webhooks/ that code outside it (other features,
 * the edge, other features' handlers, infra/ and scripts/) may import. Everything else in the folder
 * is the feature's own, and the boundary check (.dependency-cruiser.cjs) fails on an import of it
 * from outside. Tests may reach any module (docs/architecture.md#boundaries).
 */
export const PUBLIC_MODULES = [
  'adapters/delivery-queue',
  'manage-subscriptions',
  'rules/delivery-schedule',
  'rules/signature',
  'rules/webhook-delivery',
  'rules/webhook-subscription',
  'store/webhook-deliveries',
  'store/webhook-subscriptions',
] as const;
