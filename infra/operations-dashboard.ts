import { Duration } from 'aws-cdk-lib';
import type { HttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Dashboard,
  GraphWidget,
  type IMetric,
  LogQueryVisualizationType,
  LogQueryWidget,
  MathExpression,
  Metric,
  TextWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { ENDPOINT_DISABLED_METRIC } from './webhook-delivery';

const PERIOD = Duration.minutes(5);

/** The dashboard's sections, in order (docs/deployment.md#dashboard names them the same way). */
export const DASHBOARD_SECTIONS = [
  'API answers',
  'Check-ins',
  'Webhook delivery',
  'Photo ingest',
  'Retention runs',
  'Throttles',
] as const;

export interface OperationsDashboardProps {
  stage: HttpStage;
  /** The stage's access log group: one JSON line per request, with routeKey and status. */
  accessLogs: ILogGroup;
  /** Every function of the stack, by handler. */
  functions: ReadonlyMap<string, LambdaFunction>;
  checkin: LambdaFunction;
  dispatcher: LambdaFunction;
  deliverer: LambdaFunction;
  deliveryQueue: IQueue;
  deliveryDeadLetters: IQueue;
  ingest: LambdaFunction;
  ingestFailures: IQueue;
  retentionPlanner: LambdaFunction;
  retentionWorker: LambdaFunction;
  retentionDeadLetters: IQueue;
  /** The failure queues of `ops replay`, by handler. */
  failureQueues: ReadonlyMap<string, IQueue>;
}

/**
 * One CloudWatch dashboard for the operator: 4xx and 5xx per route (from the access logs, so
 * that no per-route metric needs paying for), check-ins, webhook delivery lag and failures,
 * photo ingest failures, retention runs and throttles. Each row is a section of DASHBOARD_SECTIONS.
 */
export class OperationsDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: OperationsDashboardProps) {
    super(scope, id);
    const sum = { period: PERIOD, statistic: 'Sum' } as const;
    const max = { period: PERIOD, statistic: 'Maximum' } as const;
    const graph = (title: string, left: IMetric[], width = 8) => new GraphWidget({ title, left, width, height: 6 });
    const heading = (text: string) => new TextWidget({ markdown: `## ${text}`, width: 24, height: 1 });
    const [answers, checkins, delivery, ingest, retention, throttles] = DASHBOARD_SECTIONS;

    this.dashboard = new Dashboard(this, 'Dashboard', { defaultInterval: Duration.hours(6) });
    this.dashboard.addWidgets(heading(answers));
    this.dashboard.addWidgets(
      graph('API 4xx and 5xx', [props.stage.metricClientError(sum), props.stage.metricServerError(sum)]),
      new LogQueryWidget({
        title: '4xx and 5xx per route',
        logGroupNames: [props.accessLogs.logGroupName],
        view: LogQueryVisualizationType.TABLE,
        queryLines: [
          'fields routeKey, status',
          'filter status like /^[45]/',
          'stats count(*) as answers by routeKey, status',
          'sort answers desc',
        ],
        width: 16,
        height: 6,
      }),
    );
    this.dashboard.addWidgets(heading(checkins));
    this.dashboard.addWidgets(
      graph(
        'Check-in requests and errors',
        [props.checkin.metricInvocations(sum), props.checkin.metricErrors(sum)],
        12,
      ),
      new LogQueryWidget({
        title: 'Check-ins answered, by status',
        logGroupNames: [props.accessLogs.logGroupName],
        view: LogQueryVisualizationType.TABLE,
        queryLines: [
          'fields routeKey, status',
          'filter routeKey like /^POST \\/group-?shoot$/',
          'stats count(*) as answers by routeKey, status',
        ],
        width: 12,
        height: 6,
      }),
    );
    this.dashboard.addWidgets(heading(delivery));
    this.dashboard.addWidgets(
      graph('Dispatch lag (ms behind the stream)', [props.dispatcher.metric('IteratorAge', max)]),
      graph('Oldest queued delivery (s)', [props.deliveryQueue.metricApproximateAgeOfOldestMessage(max)]),
      graph('Delivery failures', [
        props.deliverer.metricErrors(sum),
        props.deliveryDeadLetters.metricApproximateNumberOfMessagesVisible(max),
        new Metric({ ...ENDPOINT_DISABLED_METRIC, ...sum, label: 'Endpoints disabled' }),
      ]),
    );
    this.dashboard.addWidgets(heading(ingest));
    this.dashboard.addWidgets(
      graph('Ingest invocations and errors', [props.ingest.metricInvocations(sum), props.ingest.metricErrors(sum)]),
      graph('Ingest failures kept (ops replay)', [
        props.ingestFailures.metricApproximateNumberOfMessagesVisible(max),
        props.ingest.metric('DestinationDeliveryFailures', sum),
        props.ingest.metric('AsyncEventsDropped', sum),
      ]),
      graph(
        'Every failure queue',
        [...props.failureQueues].map(([handler, queue]) =>
          queue.metricApproximateNumberOfMessagesVisible({ ...max, label: handler }),
        ),
      ),
    );
    this.dashboard.addWidgets(heading(retention));
    this.dashboard.addWidgets(
      graph('Retention runs (planner)', [
        props.retentionPlanner.metricInvocations(sum),
        props.retentionPlanner.metricErrors(sum),
      ]),
      graph('Galleries erased (worker)', [
        props.retentionWorker.metricInvocations(sum),
        props.retentionWorker.metricErrors(sum),
      ]),
      graph('Retention dead letters', [props.retentionDeadLetters.metricApproximateNumberOfMessagesVisible(max)]),
    );
    this.dashboard.addWidgets(heading(throttles));
    const functionThrottles = Object.fromEntries(
      [...props.functions.values()].map((fn, index) => [`t${index}`, fn.metricThrottles(sum)]),
    );
    this.dashboard.addWidgets(
      graph(
        'Function throttles',
        [
          new MathExpression({
            expression: Object.keys(functionThrottles).join(' + '),
            usingMetrics: functionThrottles,
            label: 'Throttles, all functions',
            period: PERIOD,
          }),
        ],
        12,
      ),
      graph(
        'API requests (throttled answers are 429s among the 4xx)',
        [props.stage.metricCount(sum), props.stage.metricClientError(sum)],
        12,
      ),
    );
  }
}
