import { generateKeyPairSync } from 'node:crypto';
import { App, Aspects, type Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks } from 'cdk-nag';
import { GroupShootStack, type GroupShootStackProps } from '../../infra/groupshoot-stack';

/** A photo signing public key for the test stacks. */
export const { publicKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});

/**
 * An app as infra/app.ts builds it (cdk-nag included) whose stacks are not bundled: for tests
 * of the template where the function code is not under test (stack.test.ts bundles).
 */
export function unbundledApp(): App {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  Aspects.of(app).add(new AwsSolutionsChecks());
  return app;
}

/**
 * The stack with these props in an unbundled app, its template and each handler's function
 * logical ID. `change`, when given, alters the stack before it is synthesized (tests that show a
 * check catches a bad change).
 */
export function unbundledStack(
  props: Partial<GroupShootStackProps> = {},
  change?: (stack: GroupShootStack) => void,
): {
  stack: GroupShootStack;
  template: Template;
  functionIds: Map<string, string>;
} {
  const stack = new GroupShootStack(unbundledApp(), 'TestStack', { photoSigningPublicKeyPem: publicKey, ...props });
  change?.(stack);
  const template = Template.fromStack(stack);
  const functionIds = new Map(
    [...stack.functions].map(([handler, fn]) => [handler, stack.getLogicalId(fn.node.defaultChild as CfnFunction)]),
  );
  return { stack, template, functionIds };
}

/** Every cdk-nag AwsSolutions error and warning of the stack that is not suppressed. */
export function nagFindings(stack: Stack): string[] {
  return [
    ...Annotations.fromStack(stack).findError('*', Match.stringLikeRegexp('AwsSolutions-.*')),
    ...Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('AwsSolutions-.*')),
  ].map((finding) => `${finding.id}: ${JSON.stringify(finding.entry.data).slice(0, 100)}`);
}
