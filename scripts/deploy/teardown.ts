import type { DeployedStack } from './stack-resources';

/** A resource CloudFormation leaves behind when the stack goes, and how to delete it by hand. */
export interface RetainedResource {
  logicalId: string;
  type: string;
  physicalId: string;
  deleteWith: string;
}

const DELETE_COMMANDS: Record<string, (id: string) => string> = {
  'AWS::DynamoDB::Table': (id) =>
    `aws dynamodb update-table --table-name ${id} --no-deletion-protection-enabled && aws dynamodb delete-table --table-name ${id}`,
  'AWS::S3::Bucket': (id) =>
    `empty it with every object version (S3 console: Empty), then aws s3api delete-bucket --bucket ${id}`,
  'AWS::KMS::Key': (id) => `aws kms schedule-key-deletion --key-id ${id} --pending-window-in-days 7`,
  'AWS::SecretsManager::Secret': (id) =>
    `aws secretsmanager delete-secret --secret-id ${id} --recovery-window-in-days 7`,
  'AWS::Logs::LogGroup': (id) => `aws logs delete-log-group --log-group-name ${id}`,
};

/**
 * What the deployed stack retains (DeletionPolicy Retain: the table, the buckets, the sealing and
 * link keys, the alarm key, the log groups), with each one's name and the command that deletes it.
 */
export function retainedResources(stack: DeployedStack): RetainedResource[] {
  return Object.entries(stack.template.Resources)
    .filter(([, resource]) => resource.DeletionPolicy === 'Retain')
    .map(([logicalId, resource]) => {
      const physicalId = stack.physicalIds[logicalId] ?? '(not created)';
      const command = DELETE_COMMANDS[resource.Type];
      return {
        logicalId,
        type: resource.Type,
        physicalId,
        deleteWith: command ? command(physicalId) : `delete it in the console of ${resource.Type.split('::')[1]}`,
      };
    })
    .sort((a, b) => a.type.localeCompare(b.type) || a.logicalId.localeCompare(b.logicalId));
}
