import { stripVTControlCharacters } from 'node:util';
/**
 * What every run measured (calls, attempts, retries, waits, times), one line per run, printed
 * after the test file when FAULTS_SUMMARY=1.
 */
import type { Window } from './fault-window';
import { sameCallRepeats, virtualMs } from './retry-bounds';

const summary: string[] = [];

/** A line of its own in the summary. */
export function noteInSummary(line: string): void {
  summary.push(line);
}

export function summarise(probe: string, fault: string, window: Window): void {
  const outcome =
    window.outcome.kind === 'answer'
      ? `${window.outcome.answer.status} ${window.outcome.answer.body?.error ?? ''}`.trim()
      : window.outcome.error
        ? `threw ${window.outcome.error.name}`
        : 'ok';
  const ddb = window.sends.filter((send) => send.service === 'DynamoDB');
  const s3Sends = window.sends.filter((send) => send.service === 'S3');
  summary.push(
    [
      probe,
      fault,
      outcome,
      `ddb ${ddb.length} calls/${ddb.reduce((sum, send) => sum + send.attempts, 0)} attempts (max ${Math.max(0, ...ddb.map((send) => send.attempts))}/call)`,
      `s3 ${s3Sends.length}/${s3Sends.reduce((sum, send) => sum + send.attempts, 0)}`,
      `stripe ${window.stripeCalls.length}/${window.stripeCalls.reduce((sum, stripeCall) => sum + stripeCall.attempts, 0)}`,
      `repeats ${sameCallRepeats(window)}`,
      `sdk backoff ${window.backoffCapsMs.length} retries, expected ${window.backoffCapsMs.reduce((sum, { capMs }) => sum + capMs / 2, 0)} ms, max ${window.backoffCapsMs.reduce((sum, { capMs }) => sum + capMs, 0)} ms`,
      `skipped waits ${Math.round(window.skippedWaitsMs.reduce((sum, { ms }) => sum + ms, 0))} ms`,
      `in flight ${window.maxInFlight}`,
      `wall ${window.wallMs} ms, virtual ${virtualMs(window)} ms`,
    ].join(' | '),
  );
}

/** Prints the summary if FAULTS_SUMMARY is set. */
export function printSummary(): void {
  if (process.env.FAULTS_SUMMARY) process.stdout.write(`\n${summary.join('\n')}\n`);
}

/** A failed expectation as one line, without colours. */
export function plainMessage(error: unknown): string {
  return stripVTControlCharacters(String((error as Error)?.message ?? error))
    .replace(/\s+/g, ' ')
    .slice(0, 600);
}
