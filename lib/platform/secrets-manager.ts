import { optionalEnv } from '#lib/platform/config';

/** Secrets are read at most every five minutes per warm function, so a rotation lands soon. */
const SECRET_CACHE_SECONDS = 300;

/**
 * A secret's value: from the environment variable `name` where it is set (local development,
 * tests), else from AWS Secrets Manager, the secret whose ARN is in `${name}_ARN` (deployed
 * stacks keep secrets out of environment variables). Undefined when neither is configured.
 */
export async function secretValue(name: string, options: { fresh?: boolean } = {}): Promise<string | undefined> {
  const plain = optionalEnv(name);
  if (plain) return plain;
  const arn = optionalEnv(`${name}_ARN`);
  if (!arn) return undefined;
  // Loaded on first use: the Secrets Manager client is needed by few requests, and costs cold-start time.
  const { getSecret } = await import('@aws-lambda-powertools/parameters/secrets');
  const value = await getSecret<string>(arn, { maxAge: SECRET_CACHE_SECONDS, forceFetch: options.fresh === true });
  return typeof value === 'string' && value !== '' ? value : undefined;
}
