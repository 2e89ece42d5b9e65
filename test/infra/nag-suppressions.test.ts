import { generateKeyPairSync } from 'node:crypto';
import { App, Aspects } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks, type INagLogger, NagSuppressions, type NagLoggerSuppressedData } from 'cdk-nag';
import { GroupShootStack, type GroupShootStackProps } from '../../infra/groupshoot-stack';

type AppliesTo = string | { regex: string };
type Suppression = { id: string; reason: string; applies_to?: AppliesTo[] };
type Resource = {
  Type: string;
  Properties: Record<string, any>;
  Metadata?: { cdk_nag?: { rules_to_suppress: Suppression[] } };
};
/** A finding cdk-nag found and a suppression silenced: the resource's logical ID, the rule, the finding (e.g. `Resource::*`). */
type SuppressedFinding = { logicalId: string; ruleId: string; findingId: string };

const { publicKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});

/** Every option that adds resources (and so suppressions) on. */
const EVERYTHING: Partial<GroupShootStackProps> = {
  photoNoticeSender: 'photos@studio.example',
  apiFront: { webAclArn: 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/front/0123abcd' },
  apiDomain: {
    domainName: 'api.studio.example',
    certificateArn: 'arn:aws:acm:eu-central-1:123456789012:certificate/abc',
  },
  alarmSubscription: { email: 'ops@studio.example' },
};

const matches = (appliesTo: AppliesTo, findingId: string) => {
  if (typeof appliesTo === 'string') return appliesTo === findingId;
  const [, pattern, flags] = /^\/(.*)\/([a-z]*)$/s.exec(appliesTo.regex)!;
  return new RegExp(pattern!, flags).test(findingId);
};

/**
 * The stack, synthesized (unbundled) with cdk-nag and a logger that records every suppressed
 * finding, and each suppression of its template that silenced none: a resource's rule with no
 * finding there, an `appliesTo` entry no finding matches, a stack-wide rule with no finding at all.
 */
function auditSuppressions(props: Partial<GroupShootStackProps>, change?: (stack: GroupShootStack) => void) {
  const suppressed: SuppressedFinding[] = [];
  const unsuppressed: string[] = [];
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new GroupShootStack(app, 'TestStack', { photoSigningPublicKeyPem: publicKey, ...props });
  change?.(stack);
  const recorder: INagLogger = {
    onCompliance: () => undefined,
    onNonCompliance: (data) => unsuppressed.push(`${data.resource.node.path}: ${data.ruleId} ${data.findingId}`),
    onError: () => undefined,
    onSuppressedError: () => undefined,
    onNotApplicable: () => undefined,
    onSuppressed: (data: NagLoggerSuppressedData) =>
      suppressed.push({
        logicalId: stack.resolve(data.resource.logicalId),
        ruleId: data.ruleId,
        findingId: data.findingId,
      }),
  };
  Aspects.of(app).add(new AwsSolutionsChecks({ reports: false, additionalLoggers: [recorder] }));
  const template = Template.fromStack(stack).toJSON() as {
    Resources: Record<string, Resource>;
    Metadata?: { cdk_nag?: { rules_to_suppress: Suppression[] } };
  };
  const unused: string[] = [];
  for (const [logicalId, resource] of Object.entries(template.Resources)) {
    for (const suppression of resource.Metadata?.cdk_nag?.rules_to_suppress ?? []) {
      const findings = suppressed.filter(
        (finding) => finding.logicalId === logicalId && finding.ruleId === suppression.id,
      );
      if (findings.length === 0) unused.push(`${logicalId}: ${suppression.id}`);
      for (const appliesTo of suppression.applies_to ?? []) {
        if (!findings.some((finding) => matches(appliesTo, finding.findingId)))
          unused.push(`${logicalId}: ${suppression.id} ${JSON.stringify(appliesTo)}`);
      }
    }
  }
  for (const suppression of template.Metadata?.cdk_nag?.rules_to_suppress ?? []) {
    if (!suppressed.some((finding) => finding.ruleId === suppression.id)) unused.push(`stack: ${suppression.id}`);
  }
  return { stack, template, suppressed, unused, unsuppressed };
}

const byDefault = auditSuppressions({});
const withEverything = auditSuppressions(EVERYTHING);
/** As `npx cdk synth` builds it with CDK_DEFAULT_ACCOUNT and CDK_DEFAULT_REGION set: account and region written out, not tokens. */
const withAnEnvironment = auditSuppressions({
  ...EVERYTHING,
  env: { account: '123456789012', region: 'eu-central-1' },
});

describe('cdk-nag suppressions', () => {
  it.each([
    ['by default', byDefault],
    ['with every option on', withEverything],
    ['with every option on, in an account and region', withAnEnvironment],
  ])('each silences a finding there (%s): none is left over', (_configuration, audit) => {
    // Assess
    expect(audit.suppressed.length).toBeGreaterThan(0);
    expect(audit.unused).toEqual([]);
    expect(audit.unsuppressed).toEqual([]);
  });

  it('fails a suppression that silences nothing', () => {
    // Act: a suppression on a queue, whose rule finds nothing there, and a wildcard no finding has.
    const audit = auditSuppressions({}, (stack) => {
      NagSuppressions.addResourceSuppressions(stack.node.findChild('IngestFailures').node.findChild('Queue'), [
        { id: 'AwsSolutions-S1', reason: 'A suppression that silences nothing at all.' },
      ]);
      const fn = stack.functions.get('photos/sorting/ingest-photo')!;
      NagSuppressions.addResourceSuppressions(
        fn.role!.node.findChild('DefaultPolicy'),
        [
          {
            id: 'AwsSolutions-IAM5',
            reason: 'A wildcard that the function is not granted.',
            appliesTo: ['Resource::arn:aws:s3:::nothing/*'],
          },
        ],
        true,
      );
    });
    // Assess
    expect([...audit.unused].sort()).toEqual([
      expect.stringMatching(/^IngestFailuresQueue\w+: AwsSolutions-S1$/),
      expect.stringMatching(/^MediaIngestPhoto\w+: AwsSolutions-IAM5 "Resource::arn:aws:s3:::nothing\/\*"$/),
    ]);
  });

  it('lists each wildcard an IAM5 or IAM4 suppression allows (appliesTo), never a whole rule', () => {
    // Prepare
    const suppressions = Object.values(withEverything.template.Resources).flatMap(
      (resource) => resource.Metadata?.cdk_nag?.rules_to_suppress ?? [],
    );
    // Act
    const broad = suppressions.filter(
      (suppression) =>
        ['AwsSolutions-IAM5', 'AwsSolutions-IAM4'].includes(suppression.id) && !suppression.applies_to?.length,
    );
    // Assess
    expect(suppressions.filter((suppression) => suppression.id === 'AwsSolutions-IAM5').length).toBeGreaterThan(20);
    expect(broad).toEqual([]);
  });

  it("gives the service's functions no AWS managed policy: each writes its own log group only", () => {
    // Prepare
    const { stack, template } = withEverything;
    for (const fn of stack.functions.values()) {
      const functionResource = template.Resources[stack.getLogicalId(fn.node.defaultChild as CfnFunction)]!;
      const roleId = functionResource.Properties.Role['Fn::GetAtt'][0] as string;
      const logGroupId = functionResource.Properties.LoggingConfig.LogGroup.Ref as string;
      // Act
      const statements = Object.values(template.Resources)
        .filter(
          (resource) =>
            resource.Type === 'AWS::IAM::Policy' &&
            resource.Properties.Roles.some((role: { Ref: string }) => role.Ref === roleId),
        )
        .flatMap(
          (resource) =>
            resource.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[],
        );
      const logStatements = statements.filter((statement) =>
        [statement.Action].flat().some((action) => action.startsWith('logs:')),
      );
      // Assess
      expect(template.Resources[roleId]!.Properties.ManagedPolicyArns).toBeUndefined();
      expect(logStatements).toEqual([
        {
          Effect: 'Allow',
          Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          Resource: { 'Fn::GetAtt': [logGroupId, 'Arn'] },
        },
      ]);
    }
  });
});
