import { ASYNC_RETRY_ATTEMPTS } from '../../infra/failure-queue';
import type { LocalFailureStore } from './local-failure-store';

/**
 * Plays Lambda's asynchronous invocation locally (S3 → photo ingest): the handler is given the
 * event, and again up to `retries` times when it throws (the stack's ASYNC_RETRY_ATTEMPTS); then
 * the event goes to the failure store, as to the function's failure queue in AWS. Resolves to
 * true when the handler took it, false when it was kept. Never throws.
 */
export async function invokeAsynchronously<E>(
  handler: (event: E) => Promise<unknown>,
  event: E,
  options: {
    handlerName: string;
    store?: LocalFailureStore;
    retries?: number;
    onKept?: (id: string | undefined) => void;
  },
): Promise<boolean> {
  const retries = options.retries ?? ASYNC_RETRY_ATTEMPTS;
  let reason = 'Error';
  for (let attempt = 1; attempt <= retries + 1; attempt += 1) {
    try {
      await handler(event);
      return true;
    } catch (error) {
      reason = (error as Error)?.name ?? 'Error';
    }
  }
  const id = options.store?.keep({
    handler: options.handlerName,
    source: 'async',
    failedAt: new Date().toISOString(),
    attempts: retries + 1,
    reason,
    event,
  });
  options.onKept?.(id);
  return false;
}
