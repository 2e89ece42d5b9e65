/** A problem with the options or the file that the user fixes: exit code 2, nothing was sent. */
export class UsageError extends Error {}
