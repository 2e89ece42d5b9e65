/**
 * The delivery of one event to one subscription, as its log shows it (admin CLI `webhook
 * deliveries`): pending until an attempt succeeds (delivered) or the retry period ends (failed);
 * gone when the event was erased or expired before it could be sent; replay_requested while an
 * operator's replay waits for the dispatcher.
 */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'gone' | 'replay_requested';

/** `url_refused` and `endpoint_disabled` end the delivery without an attempt; the others are attempts that failed. */
export type AttemptFailure =
  | 'timeout'
  | 'address_refused'
  | 'connection_failed'
  | 'http_status'
  | 'redirect'
  | 'endpoint_disabled'
  | 'url_refused';

export interface DeliveryAttempt {
  attempt: number;
  at: string;
  durationMs: number;
  statusCode?: number;
  failure?: AttemptFailure;
}

export interface WebhookDelivery {
  tenantId: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  galleryToken: string;
  status: DeliveryStatus;
  createdAt: string;
  /** Attempts made, every round together. */
  attempts: number;
  /** Failed attempts of the current round (a replay starts a new one). */
  roundFailures: number;
  /** When the current round's first attempt was made (ms); retries go on until DELIVERY_RETRY_PERIOD_MS after it. */
  roundStartedAt?: number;
  /** Not attempted before this time (ms). */
  nextAttemptAt: number;
  deliveredAt?: string;
  attemptLog: DeliveryAttempt[];
}

/** Statuses a queued message still has work to do in. */
export function awaitsAttempt(status: DeliveryStatus): boolean {
  return status === 'pending' || status === 'replay_requested';
}
