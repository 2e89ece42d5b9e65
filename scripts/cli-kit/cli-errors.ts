/**
 * The failures of the command-line tools (admin, import, photos) and the one place that prints
 * them: one line on standard error, never a stack trace, and the exit code their docs list.
 */
import { isMissingTable } from '#lib/platform/table/store-errors';

/** Exit codes shared by every CLI of the project. */
export const EXIT_CODE = {
  ok: 0,
  /** Not found, conflict, or a failure of DynamoDB, S3 or the API itself. */
  failed: 1,
  /** The command line or the environment is wrong; nothing was read or written. */
  usage: 2,
} as const;

/** An expected failure of a command: its message is printed as it is, without a stack. */
export class CliError extends Error {
  readonly exitCode: number;

  constructor(message: string, exitCode: number) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

/** A missing or invalid command, option, file or environment variable. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, EXIT_CODE.usage);
    this.name = 'UsageError';
  }
}

/** A tenant, gallery, key, person or field that does not exist. */
export class NotFoundError extends CliError {
  constructor(message: string) {
    super(message, EXIT_CODE.failed);
    this.name = 'NotFoundError';
  }
}

/** A change the current state does not allow, such as a second tenant with the same slug. */
export class ConflictError extends CliError {
  constructor(message: string) {
    super(message, EXIT_CODE.failed);
    this.name = 'ConflictError';
  }
}

/** The first line of what was thrown: SDK and parser messages can span several. */
export function firstLineOf(error: unknown): string {
  return String((error as Error | undefined)?.message ?? error).split('\n')[0] ?? '';
}

/**
 * Prints what a command threw as one line on `io.err` and returns the exit code: a CliError as
 * it is, with its own code; anything else through `describeUnexpected`, with exit code 1.
 */
export function reportFailure(
  error: unknown,
  io: { err(line: string): void },
  describeUnexpected: (error: unknown) => string = describeFailure,
): number {
  if (error instanceof CliError) {
    io.err(error.message);
    return error.exitCode;
  }
  io.err(describeUnexpected(error));
  return EXIT_CODE.failed;
}

/** An unexpected failure, with a hint for the usual causes: a wrong table, DynamoDB Local not running. */
export function describeFailure(error: unknown, env: NodeJS.ProcessEnv = process.env): string {
  const firstLine = firstLineOf(error);
  if (isMissingTable(error)) {
    return `Table "${env.TABLE_NAME}" was not found (${firstLine}); check TABLE_NAME, AWS_REGION and DYNAMODB_ENDPOINT`;
  }
  if ((error as { code?: string } | undefined)?.code === 'ECONNREFUSED' && env.DYNAMODB_ENDPOINT) {
    return `DynamoDB at ${env.DYNAMODB_ENDPOINT} refused the connection; is DynamoDB Local (npm start) running?`;
  }
  return `Failed: ${(error as Error | undefined)?.name ?? 'Error'}: ${firstLine}`;
}
