import { Alarm, ComparisonOperator, type IMetric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';

/**
 * The stack's kind of alarm: in alarm when one period of `metric` reaches `threshold`; no data
 * (nothing happened) is not an alarm.
 */
export function thresholdAlarm(scope: Construct, id: string, metric: IMetric, threshold: number): Alarm {
  return new Alarm(scope, id, {
    metric,
    threshold,
    evaluationPeriods: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
}
