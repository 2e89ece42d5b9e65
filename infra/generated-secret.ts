import { RemovalPolicy } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';

/**
 * A key the stack generates at deployment (64 letters and digits) and keeps as long as the data
 * it protects (kept when the stack goes). Changing the generation settings would replace it with
 * a new value, so they stay as they are. `noRotation`: why no rotation Lambda rotates it.
 */
export function generatedKeySecret(scope: Construct, id: string, description: string, noRotation: string): Secret {
  const secret = new Secret(scope, id, {
    description,
    generateSecretString: { passwordLength: 64, excludePunctuation: true },
    removalPolicy: RemovalPolicy.RETAIN,
  });
  NagSuppressions.addResourceSuppressions(secret, [{ id: 'AwsSolutions-SMG4', reason: noRotation }]);
  return secret;
}
