/**
 * Configuration read from the environment once, at module initialisation, so that a
 * function missing its configuration fails at cold start rather than on a request.
 */
export function requireEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') {
    throw new Error(`Missing required environment variable ${name}`);
  }
  return value;
}

export function optionalEnv(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
}

/**
 * Whether this process is the local stack (`npm start`, the tests' in-process API): set by
 * scripts/local/ as LOCAL_STACK=true. A Lambda function never is, whatever its environment says.
 */
export function runsOnLocalStack(): boolean {
  return optionalEnv('LOCAL_STACK') === 'true' && optionalEnv('AWS_LAMBDA_FUNCTION_NAME') === undefined;
}

/** Upper bound of a request body in bytes; larger bodies get 413 payload_too_large. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;
