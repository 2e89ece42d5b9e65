/** Exit codes of `npm run admin`; docs/admin-cli.md documents them. */
export const EXIT_CODE = {
  ok: 0,
  /** Not found, conflict, or a failure of DynamoDB itself. */
  failed: 1,
  /** The command line or the environment is wrong; nothing was read or written. */
  usage: 2,
} as const;

/** An expected failure of an admin command: its message is printed as it is, without a stack. */
export class AdminError extends Error {
  readonly exitCode: number;

  constructor(message: string, exitCode: number) {
    super(message);
    this.name = 'AdminError';
    this.exitCode = exitCode;
  }
}

/** A missing or invalid command, option or environment variable. */
export class UsageError extends AdminError {
  constructor(message: string) {
    super(message, EXIT_CODE.usage);
    this.name = 'UsageError';
  }
}

/** A tenant, gallery, key or field that does not exist. */
export class NotFoundError extends AdminError {
  constructor(message: string) {
    super(message, EXIT_CODE.failed);
    this.name = 'NotFoundError';
  }
}

/** A change the current state does not allow, such as a second tenant with the same slug. */
export class ConflictError extends AdminError {
  constructor(message: string) {
    super(message, EXIT_CODE.failed);
    this.name = 'ConflictError';
  }
}
