import {
  CloudFormationClient,
  DescribeStackResourcesCommand,
  GetTemplateCommand,
} from '@aws-sdk/client-cloudformation';
import { GetSecretValueCommand, PutSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { StackTemplate } from '../../infra/stateful-resources';

/** The deployed stack's template and its resources' physical IDs; undefined when the stack does not exist. */
export interface DeployedStack {
  template: StackTemplate & { Resources: Record<string, { Type: string; DeletionPolicy?: string }> };
  physicalIds: Record<string, string>;
}

export async function readDeployedStack(region: string, stackName: string): Promise<DeployedStack | undefined> {
  const cloudFormation = new CloudFormationClient({ region });
  try {
    const { TemplateBody } = await cloudFormation.send(
      new GetTemplateCommand({ StackName: stackName, TemplateStage: 'Original' }),
    );
    const { StackResources } = await cloudFormation.send(new DescribeStackResourcesCommand({ StackName: stackName }));
    return {
      template: JSON.parse(TemplateBody ?? '{}') as DeployedStack['template'],
      physicalIds: Object.fromEntries(
        (StackResources ?? []).map((resource) => [resource.LogicalResourceId!, resource.PhysicalResourceId ?? '']),
      ),
    };
  } catch (error) {
    if (/does not exist/.test(String((error as Error).message))) return undefined;
    throw error;
  }
}

/** A secret of the stack by its logical ID (infra/stateful-resources.ts pins them). */
export function stackSecret(region: string, secretArn: string) {
  const client = new SecretsManagerClient({ region });
  return {
    async read(): Promise<string | undefined> {
      const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: secretArn }));
      return SecretString;
    },
    async write(value: string): Promise<void> {
      await client.send(new PutSecretValueCommand({ SecretId: secretArn, SecretString: value }));
    },
  };
}
