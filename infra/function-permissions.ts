/**
 * What each function may touch, by the handler name the route module gives it. The stack
 * grants exactly this; infra tests check that every function of the route module is here.
 *
 * table: none, read, read plus the rate-limit counters (server-side endpoints), or readWrite.
 * media: which prefixes of the media bucket, and how.
 * secrets: which secrets it reads at run time.
 */
export type TableAccess = 'none' | 'read' | 'readAndRateLimit' | 'readWrite';
export type SecretName = 'stripeSecretKey' | 'stripeWebhookSecret' | 'photoSigningKey';

export interface FunctionPermissions {
  table: TableAccess;
  media?: { prefix: 'selfies/' | 'photos/'; access: 'read' | 'write' };
  secrets?: SecretName[];
  /** Photo URL signing configuration (distribution domain, key pair ID). */
  photoCdn?: boolean;
  memoryMb?: number;
}

export const FUNCTION_PERMISSIONS: Record<string, FunctionPermissions> = {
  'checkin/get-checkin-info': { table: 'readAndRateLimit' },
  'checkin/post-group-shoot': {
    table: 'readWrite',
    media: { prefix: 'selfies/', access: 'write' },
    secrets: ['stripeSecretKey'],
    memoryMb: 1024,
  },
  'integration/list-form-fields': { table: 'readAndRateLimit' },
  'integration/list-shooting-days': { table: 'readAndRateLimit' },
  'integration/list-persons': { table: 'readAndRateLimit' },
  'integration/get-gallery-stats': { table: 'readAndRateLimit' },
  'integration/list-person-photos': { table: 'readAndRateLimit', secrets: ['photoSigningKey'], photoCdn: true },
  'integration/import-persons': { table: 'readWrite', memoryMb: 1024 },
  'payments/stripe-webhook': { table: 'readWrite', secrets: ['stripeWebhookSecret'] },
  'system/route-not-matched': { table: 'none' },
  'system/cors-preflight': { table: 'none' },
  'media/ingest-photo': { table: 'readWrite', media: { prefix: 'photos/', access: 'read' } },
  'payments/sweep-reservations': { table: 'readWrite', secrets: ['stripeSecretKey'] },
};

/** The function S3 invokes for new objects under photos/; not behind the API. */
export const PHOTO_INGEST_HANDLER = 'media/ingest-photo';

/** The function a schedule runs every few minutes to settle reservations nothing else will end (docs/payments.md). */
export const RESERVATION_SWEEP_HANDLER = 'payments/sweep-reservations';
export const RESERVATION_SWEEP_MINUTES = 5;
