import { Match } from 'aws-cdk-lib/assertions';
import { HR_EXPORT_MAX_RECEIVES } from '#lib/hr-exports/rules/hr-export-model';
import { HR_EXPORT_CREATE_HANDLER } from '../../infra/function-permissions';
import { HR_EXPORT_BUILD_HANDLER } from '#lib/http/handlers';
import { HR_EXPORT_BUILDER_CONCURRENCY, type HrExportQueue } from '../../infra/hr-export-queue';
import { roleStatements } from './iam-evaluation';
import { unbundledStack } from './unbundled-stack';

let built: ReturnType<typeof unbundledStack>;
let ids: { queue: string; deadLetterQueue: string };

beforeAll(() => {
  // Prepare: the stack as deployed by default, not bundled (the code is not under test here).
  built = unbundledStack();
  const hrExports = built.stack.node.findChild('HrExports') as HrExportQueue;
  const idOf = (queue: { node: { defaultChild?: unknown } }) =>
    built.stack.getLogicalId(queue.node.defaultChild as never);
  ids = { queue: idOf(hrExports.queue), deadLetterQueue: idOf(hrExports.deadLetterQueue) };
}, 60_000);

const functionOf = (handler: string) =>
  built.template.findResources('AWS::Lambda::Function')[built.functionIds.get(handler)!]!.Properties;
const statementsOf = (handler: string) => roleStatements(built.template, built.functionIds.get(handler)!);

describe('the HR export queue', () => {
  it('hands each export to the builder alone, for up to 15 minutes, at most two at once', () => {
    const mappings = Object.values(built.template.findResources('AWS::Lambda::EventSourceMapping')).filter(
      (mapping) => mapping.Properties.FunctionName.Ref === built.functionIds.get(HR_EXPORT_BUILD_HANDLER),
    );
    expect(mappings.map((mapping) => mapping.Properties)).toEqual([
      expect.objectContaining({
        EventSourceArn: { 'Fn::GetAtt': [ids.queue, 'Arn'] },
        BatchSize: 1,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        ScalingConfig: { MaximumConcurrency: HR_EXPORT_BUILDER_CONCURRENCY },
      }),
    ]);
    expect([functionOf(HR_EXPORT_BUILD_HANDLER).Timeout, functionOf(HR_EXPORT_BUILD_HANDLER).MemorySize]).toEqual([
      900, 1769,
    ]);
  });

  it(`moves an export failed ${HR_EXPORT_MAX_RECEIVES} times to a dead-letter queue that alarms; both encrypted, messages hidden 6 times the builder's timeout`, () => {
    const queues = built.template.findResources('AWS::SQS::Queue');
    expect(queues[ids.queue]!.Properties.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [ids.deadLetterQueue, 'Arn'] },
      maxReceiveCount: HR_EXPORT_MAX_RECEIVES,
    });
    expect(queues[ids.queue]!.Properties.VisibilityTimeout).toBe(5400);
    for (const id of [ids.queue, ids.deadLetterQueue]) expect(queues[id]!.Properties.SqsManagedSseEnabled).toBe(true);
    built.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [ids.deadLetterQueue, 'QueueName'] } }],
      Threshold: 1,
      AlarmActions: [{ Ref: Match.stringLikeRegexp('^Alarms') }],
    });
  });

  it('lets only the create endpoint send to the queue, and tells it the URL', () => {
    const sends = (handler: string) =>
      statementsOf(handler).some((statement) => [statement.Action].flat().includes('sqs:SendMessage'));
    expect(
      [...built.functionIds.keys()].filter(
        (handler) => JSON.stringify(statementsOf(handler)).includes(ids.queue) && sends(handler),
      ),
    ).toEqual([HR_EXPORT_CREATE_HANDLER]);
    expect(functionOf(HR_EXPORT_CREATE_HANDLER).Environment.Variables.HR_EXPORT_QUEUE_URL).toEqual({ Ref: ids.queue });
  });
});
