import { ArnFormat, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, type IMetric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

const CLOUDWATCH = 'cloudwatch.amazonaws.com';

export interface AlarmTopicAlarmProps {
  /** What is watched: a metric or a metric-math expression. */
  readonly metric: IMetric;
  /** The alarm fires above this value (below it, with `below`). */
  readonly threshold: number;
  /**
   * Fires below the threshold instead: a heartbeat that should keep coming.
   * @default false
   */
  readonly below?: boolean;
  /**
   * A period with no data breaches (a heartbeat that stopped); otherwise nothing happened
   * and nothing is wrong.
   * @default false
   */
  readonly missingDataBreaches?: boolean;
  /** What it means and what to do first: the on-call engineer reads it in the notification. */
  readonly description: string;
  /**
   * How many recent periods are evaluated.
   * @default 1
   */
  readonly evaluationPeriods?: number;
  /**
   * How many of them must breach.
   * @default - all of them
   */
  readonly datapointsToAlarm?: number;
}

/**
 * The one SNS topic every alarm of the service notifies (subscribe operators' e-mail,
 * chat or paging to it after deploying; its ARN is a stack output). It lives in the stack,
 * the alarms in the monitoring nested stack (lib/stack/monitoring.ts says why).
 *
 * Encrypted with a customer-managed KMS key of its own: CloudWatch cannot publish to a
 * topic under the AWS-managed `alias/aws/sns` key, because that key's policy cannot be
 * changed to let CloudWatch use it. The key allows CloudWatch exactly `kms:Decrypt` and
 * `kms:GenerateDataKey*` (what SNS needs on the publisher's behalf); the topic accepts
 * only TLS publishes and allows CloudWatch to publish only for this account's alarms.
 */
export class AlarmTopic extends Construct {
  readonly topic: Topic;
  readonly key: Key;
  private readonly action: SnsAction;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const stack = Stack.of(this);
    this.key = new Key(this, 'Key', {
      description: `Encrypts the alarm notifications of ${stack.stackName}`,
      enableKeyRotation: true,
      // Nothing is stored under this key beyond in-flight notifications.
      removalPolicy: RemovalPolicy.DESTROY,
      pendingWindow: Duration.days(7),
    });
    this.key.addToResourcePolicy(
      new PolicyStatement({
        sid: 'AllowCloudWatchAlarmsToPublishToTheEncryptedTopic',
        principals: [new ServicePrincipal(CLOUDWATCH)],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
      }),
    );
    this.topic = new Topic(this, 'Topic', {
      displayName: `${stack.stackName} alarms`,
      masterKey: this.key,
      enforceSSL: true,
    });
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'AllowThisAccountsCloudWatchAlarms',
        principals: [new ServicePrincipal(CLOUDWATCH)],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          ArnLike: {
            'aws:SourceArn': stack.formatArn({
              service: 'cloudwatch',
              resource: 'alarm',
              resourceName: '*',
              arnFormat: ArnFormat.COLON_RESOURCE_NAME,
            }),
          },
          StringEquals: { 'aws:SourceAccount': stack.account },
        },
      }),
    );
    this.action = new SnsAction(this.topic);
  }

  /**
   * An alarm that notifies this topic (and again when it clears): when the metric is above
   * (or `below`) the threshold in `datapointsToAlarm` of the last `evaluationPeriods`
   * periods (by default in the last one). Missing data (nothing happened) is not breaching
   * unless `missingDataBreaches`.
   */
  alarm(scope: Construct, id: string, props: AlarmTopicAlarmProps): Alarm {
    const alarm = new Alarm(scope, id, {
      metric: props.metric,
      threshold: props.threshold,
      comparisonOperator: props.below
        ? ComparisonOperator.LESS_THAN_THRESHOLD
        : ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: props.evaluationPeriods ?? 1,
      datapointsToAlarm: props.datapointsToAlarm,
      treatMissingData: props.missingDataBreaches ? TreatMissingData.BREACHING : TreatMissingData.NOT_BREACHING,
      alarmDescription: props.description,
    });
    alarm.addAlarmAction(this.action);
    alarm.addOkAction(this.action);
    return alarm;
  }

  /**
   * Alarms as soon as a queue holds any visible message: for dead-letter queues and
   * on-failure destinations, where every message is work that failed for good.
   */
  alarmWhenNotEmpty(scope: Construct, id: string, queue: IQueue, description: string): Alarm {
    return this.alarm(scope, id, {
      metric: queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      threshold: 0,
      description,
    });
  }
}
