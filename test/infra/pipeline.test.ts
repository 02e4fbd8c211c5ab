import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { consumerDescription } from '#lib/constructs/consumer-function';
import { VISIBILITY_TIMEOUT_FACTOR } from '#lib/constructs/consumer-sources';
import {
  CONSUMERS,
  type ConsumerDefinition,
  type ConsumerSource,
  QUEUE_SETTINGS,
  ROUTES,
  routeKey,
  streamFilterPattern,
} from '#lib/service/index';
import { ENV as CONFIG_ENV } from '#shared/config';
import { QUEUES, type QueueId } from '#shared/queue/message-queue';
import {
  actionsOf,
  type BuildOptions,
  buildApp,
  functionByDescription,
  kmsKeyIds,
  monitoringTemplate,
  propsOf,
  refId,
  resourcesOf,
  statementsOfRole,
  viaService,
} from './harness';

const build = (options: BuildOptions = {}) => {
  const { stack } = buildApp(options);
  const template = Template.fromStack(stack);
  const logicalId = (construct: IConstruct) => stack.getLogicalId(construct.node.defaultChild as CfnElement);
  return { stack, template, monitoring: monitoringTemplate(stack), logicalId };
};
const { stack, template, monitoring, logicalId } = build();

const queues = resourcesOf(template, 'AWS::SQS::Queue');
/** Every alarm lives in the monitoring nested stack; its metrics and actions name the parent's resources. */
const alarms = resourcesOf(monitoring, 'AWS::CloudWatch::Alarm');
const mappings = resourcesOf(template, 'AWS::Lambda::EventSourceMapping');
const [topicId] = Object.keys(resourcesOf(template, 'AWS::SNS::Topic'));
const [tableId] = Object.keys(resourcesOf(template, 'AWS::DynamoDB::Table'));

const QUEUE_IDS = Object.keys(QUEUE_SETTINGS) as QueueId[];
/** Logical id of the work queue of a queue id. */
const workQueueId = (id: QueueId) => logicalId(stack.pipeline.queues.get(id)!.queue);
const functionOf = (consumer: ConsumerDefinition) => functionByDescription(template, consumerDescription(consumer));
const statementsOf = (consumer: ConsumerDefinition) =>
  statementsOfRole(template, refId(functionOf(consumer).props.Role)!);
/** Resources (logical ids) of the role's statements that allow `action`. */
const resourcesAllowing = (consumer: ConsumerDefinition, action: string) =>
  statementsOf(consumer)
    .filter((s) => actionsOf([s]).includes(action))
    .flatMap((s) => (Array.isArray(s.Resource) ? s.Resource : [s.Resource]))
    .map((r) => refId(r) ?? r)
    .sort();
const mappingsOf = (consumer: ConsumerDefinition) =>
  Object.values(mappings).filter((m) => refId(m.Properties?.FunctionName) === functionOf(consumer).id);

type SourceOf<K extends ConsumerSource['kind']> = Extract<ConsumerSource, { kind: K }>;
const consumersWith = <K extends ConsumerSource['kind']>(kind: K) =>
  CONSUMERS.filter((c): c is ConsumerDefinition & { source: SourceOf<K> } => c.source.kind === kind).map(
    (c) => [c.id, c] as const,
  );
const streamConsumers = consumersWith('table-stream');
const queueConsumers = consumersWith('queue');
const scheduleConsumers = consumersWith('schedule');
const consumerById = (id: string) => CONSUMERS.find((c) => c.id === id)!;

/** The alarms that fire when the queue holds any visible message, and notify the alarm topic. */
const notEmptyAlarmsOf = (queueId: string) =>
  Object.values(alarms).filter((a) => {
    const p = a.Properties!;
    return (
      p.Namespace === 'AWS/SQS' &&
      p.MetricName === 'ApproximateNumberOfMessagesVisible' &&
      JSON.stringify(p.Dimensions) ===
        JSON.stringify([{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId, 'QueueName'] } }]) &&
      p.ComparisonOperator === 'GreaterThanThreshold' &&
      p.Threshold === 0 &&
      JSON.stringify(p.AlarmActions) === JSON.stringify([{ Ref: topicId }])
    );
  });

const FOURTEEN_DAYS = 14 * 24 * 3600;

describe('the consumers in lib/service/', () => {
  it('cover every source kind, so no test below is vacuous', () => {
    expect(streamConsumers.map(([id]) => id)).toContain('StreamRouter');
    expect(queueConsumers.map(([id]) => id)).toContain('VerificationWorker');
    expect(scheduleConsumers.map(([id]) => id)).toContain('StatementCodeExpiry');
  });
});

describe('work queues (one per QUEUE_SETTINGS entry)', () => {
  it('are exactly one queue with a redrive policy per queue id, each with a dead-letter queue of its own', () => {
    const redriven = Object.values(queues).filter((q) => q.Properties?.RedrivePolicy);
    expect(redriven).toHaveLength(QUEUE_IDS.length);
    const targets = redriven.map((q) => refId(q.Properties?.RedrivePolicy.deadLetterTargetArn));
    expect(new Set(targets).size).toBe(QUEUE_IDS.length);
    expect(QUEUE_IDS.map(workQueueId).sort()).toEqual(
      Object.entries(queues)
        .filter(([, q]) => q.Properties?.RedrivePolicy)
        .map(([id]) => id)
        .sort(),
    );
  });

  it.each(QUEUE_IDS)(
    "%s moves a message to its dead-letter queue after the settings' maxReceiveCount receives; the DLQ keeps it 14 days",
    (id) => {
      const redrive = queues[workQueueId(id)]!.Properties?.RedrivePolicy;
      expect(redrive.maxReceiveCount).toBe(QUEUE_SETTINGS[id].maxReceiveCount);
      const dlq = queues[refId(redrive.deadLetterTargetArn)!]!;
      expect(dlq.Properties?.MessageRetentionPeriod).toBe(FOURTEEN_DAYS);
      expect(dlq.Properties?.RedrivePolicy).toBeUndefined();
    },
  );

  it.each(QUEUE_IDS)(
    "%s's dead-letter queue is the one queue whose logical id starts Pipeline<Name>QueueDeadLetters, which docs/operations.md's redrive commands select",
    (id) => {
      const dlqId = refId(queues[workQueueId(id)]!.Properties?.RedrivePolicy.deadLetterTargetArn)!;
      const prefix = `Pipeline${QUEUE_SETTINGS[id].name}QueueDeadLetters`;
      expect(Object.keys(queues).filter((logical) => logical.startsWith(prefix))).toEqual([dlqId]);
    },
  );

  it.each(QUEUE_IDS)('%s keeps a waiting message a week, less than its dead-letter queue keeps it', (id) => {
    const retention = queues[workQueueId(id)]!.Properties?.MessageRetentionPeriod;
    expect(retention).toBe(7 * 24 * 60 * 60);
    expect(retention).toBeLessThan(FOURTEEN_DAYS);
  });

  it.each(QUEUE_IDS)(
    '%s has an alarm on its dead-letter queue (ApproximateNumberOfMessagesVisible > 0) notifying the alarm topic',
    (id) => {
      const dlqId = refId(queues[workQueueId(id)]!.Properties?.RedrivePolicy.deadLetterTargetArn)!;
      expect(notEmptyAlarmsOf(dlqId)).toHaveLength(1);
    },
  );

  it.each(QUEUE_IDS)("%s has the settings' visibility timeout", (id) => {
    expect(queues[workQueueId(id)]!.Properties?.VisibilityTimeout).toBe(QUEUE_SETTINGS[id].visibilityTimeoutSeconds);
  });

  it('every queue of the stack (work queues, dead-letter queues, failure destinations) is encrypted and refuses requests without TLS', () => {
    const policies = Object.values(resourcesOf(template, 'AWS::SQS::QueuePolicy'));
    for (const [id, queue] of Object.entries(queues)) {
      const encrypted =
        queue.Properties?.SqsManagedSseEnabled === true || queue.Properties?.KmsMasterKeyId !== undefined;
      expect(encrypted, id).toBe(true);
      const statements = policies
        .filter((p) => (propsOf(p).Queues as unknown[]).some((q) => refId(q) === id))
        .flatMap((p) => propsOf(p).PolicyDocument.Statement as Record<string, any>[]);
      expect(statements, id).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );
    }
  });

  /** The queues whose messages name the service's records: work queues, their DLQs, stream on-failure stores. */
  const personalDataQueues = () => [
    ...QUEUE_IDS.map(workQueueId),
    ...QUEUE_IDS.map((id) => refId(queues[workQueueId(id)]!.Properties?.RedrivePolicy.deadLetterTargetArn)!),
    ...[...stack.pipeline.onFailure.values()].map((store) => logicalId(store.queue)),
  ];

  it('every work queue, its dead-letter queue and every stream on-failure store is encrypted with the customer-managed storage key, reusing a data key for an hour (SQS allows 60 s to 24 h)', () => {
    const ids = personalDataQueues();
    expect(ids).toHaveLength(2 * QUEUE_IDS.length + streamConsumers.length);
    for (const id of ids) {
      const props = queues[id]!.Properties!;
      expect(props.KmsMasterKeyId, id).toEqual({ 'Fn::GetAtt': [kmsKeyIds(template).storage, 'Arn'] });
      expect(props.SqsManagedSseEnabled, id).toBeUndefined();
      expect(props.KmsDataKeyReusePeriodSeconds, id).toBe(3600);
      expect(props.KmsDataKeyReusePeriodSeconds).toBeGreaterThanOrEqual(60);
      expect(props.KmsDataKeyReusePeriodSeconds).toBeLessThanOrEqual(86_400);
    }
  });

  it('only the schedules’ dead-letter queues, which hold EventBridge’s scheduled-event envelope and no data of the service, use SQS-managed keys', () => {
    const sqsManaged = Object.entries(queues)
      .filter(([, q]) => q.Properties?.KmsMasterKeyId === undefined)
      .map(([id]) => id)
      .sort();
    expect(sqsManaged).toEqual(
      [...stack.pipeline.scheduleDeadLetters.values()].map((store) => logicalId(store.queue)).sort(),
    );
    expect(sqsManaged).toHaveLength(scheduleConsumers.length);
    expect(Object.keys(queues)).toHaveLength(personalDataQueues().length + sqsManaged.length);
  });

  it('every queue without a redrive policy is a dead-letter store: kept 14 days and alarmed as soon as it holds a message', () => {
    for (const [id, queue] of Object.entries(queues).filter(([, q]) => !q.Properties?.RedrivePolicy)) {
      expect(queue.Properties?.MessageRetentionPeriod, id).toBe(FOURTEEN_DAYS);
      expect(notEmptyAlarmsOf(id), id).toHaveLength(1);
    }
  });
});

describe('visibility timeout', () => {
  it.each(queueConsumers)(
    `%s: its queue's visibility timeout is at least ${VISIBILITY_TIMEOUT_FACTOR}× its function's timeout (settings and template)`,
    (_, consumer) => {
      expect(QUEUE_SETTINGS[consumer.source.queue].visibilityTimeoutSeconds).toBeGreaterThanOrEqual(
        6 * consumer.timeoutSeconds,
      );
      const [mapping] = mappingsOf(consumer);
      const queue = queues[refId(mapping!.Properties?.EventSourceArn)!]!;
      expect(queue.Properties?.VisibilityTimeout).toBeGreaterThanOrEqual(6 * functionOf(consumer).props.Timeout);
    },
  );

  it("refuses to synthesize a queue whose visibility timeout is below 6× its consumer's timeout", () => {
    const [, consumer] = queueConsumers[0]!;
    const queueSettings = {
      ...QUEUE_SETTINGS,
      [consumer.source.queue]: {
        ...QUEUE_SETTINGS[consumer.source.queue],
        visibilityTimeoutSeconds: 6 * consumer.timeoutSeconds - 1,
      },
    };
    expect(() => buildApp({ stackProps: { queueSettings } })).toThrow(/visibility timeout/);
  });
});

describe('table stream → stream consumers', () => {
  it.each(streamConsumers)(
    "%s: one event source mapping on the table stream with exactly the row's filter criteria (streamFilterPattern)",
    (_, consumer) => {
      const found = mappingsOf(consumer);
      expect(found).toHaveLength(1);
      const props = found[0]!.Properties!;
      expect(props.EventSourceArn).toEqual({ 'Fn::GetAtt': [tableId, 'StreamArn'] });
      const patterns = (props.FilterCriteria.Filters as { Pattern: string }[]).map((f) => JSON.parse(f.Pattern));
      expect(patterns).toEqual(consumer.source.filters.map((f) => streamFilterPattern(f)));
    },
  );

  it.each(streamConsumers)(
    "%s: reports batch item failures, bisects failing batches, retries maxRetryAttempts times, from TRIM_HORIZON with the row's batch size and parallelization factor and a 1-day record age limit",
    (_, consumer) => {
      expect(mappingsOf(consumer)[0]!.Properties).toMatchObject({
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        BisectBatchOnFunctionError: true,
        MaximumRetryAttempts: consumer.source.maxRetryAttempts,
        StartingPosition: 'TRIM_HORIZON',
        BatchSize: consumer.source.batchSize,
        MaximumRecordAgeInSeconds: 24 * 3600,
      });
      // The row's factor, or none at all (Lambda's default, one batch per shard at a time).
      expect(mappingsOf(consumer)[0]!.Properties?.ParallelizationFactor).toBe(consumer.source.parallelizationFactor);
    },
  );

  it.each(streamConsumers)(
    '%s: batches that still fail go to an on-failure SQS queue that is kept 14 days and alarmed',
    (_, consumer) => {
      const destination = refId(mappingsOf(consumer)[0]!.Properties?.DestinationConfig.OnFailure.Destination)!;
      expect(queues[destination]?.Type).toBe('AWS::SQS::Queue');
      expect(queues[destination]!.Properties?.MessageRetentionPeriod).toBe(FOURTEEN_DAYS);
      expect(notEmptyAlarmsOf(destination)).toHaveLength(1);
      expect(QUEUE_IDS.map(workQueueId)).not.toContain(destination);
    },
  );

  it.each(streamConsumers)(
    "%s's on-failure store is the one queue whose logical id starts Pipeline<Consumer>OnFailure, which docs/operations.md's replay commands select",
    (id, consumer) => {
      const destination = refId(mappingsOf(consumer)[0]!.Properties?.DestinationConfig.OnFailure.Destination)!;
      expect(Object.keys(queues).filter((logical) => logical.startsWith(`Pipeline${id}OnFailure`))).toEqual([
        destination,
      ]);
    },
  );
});

describe('queues → queue consumers', () => {
  it.each(queueConsumers)(
    '%s: one SQS event source mapping on its own queue, with its batch size and ReportBatchItemFailures',
    (_, consumer) => {
      const found = mappingsOf(consumer);
      expect(found).toHaveLength(1);
      expect(found[0]!.Properties).toMatchObject({
        EventSourceArn: { 'Fn::GetAtt': [workQueueId(consumer.source.queue), 'Arn'] },
        BatchSize: consumer.source.batchSize,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
    },
  );

  it('every event source mapping of the stack belongs to a consumer row (none is left over)', () => {
    expect(Object.keys(mappings)).toHaveLength(streamConsumers.length + queueConsumers.length);
  });
});

describe('schedules', () => {
  const rules = resourcesOf(template, 'AWS::Events::Rule');
  const ruleOf = (consumer: ConsumerDefinition) => {
    const fnId = functionOf(consumer).id;
    const found = Object.entries(rules).filter(([id, r]) =>
      (propsOf(r, id).Targets as { Arn: unknown }[]).some((t) => refId(t.Arn) === fnId),
    );
    expect(found).toHaveLength(1);
    return found[0]!;
  };

  it('StatementCodeExpiry runs every hour: a code 5 days old shows control_status canceled within the hour, not up to a day late (docs/api.md#verify-accounts)', () => {
    const [, rule] = ruleOf(consumerById('StatementCodeExpiry'));
    expect(rule.Properties?.ScheduleExpression).toMatch(/^cron\(\d+ \* \* \* \? \*\)$/);
  });

  it.each(scheduleConsumers)(
    "%s: an EventBridge rule with the row's cron (UTC) targets only its function, with retries and an alarmed dead-letter queue",
    (_, consumer) => {
      const [, rule] = ruleOf(consumer);
      const { minute, hour } = consumer.source.cron;
      expect(rule.Properties?.ScheduleExpression).toBe(`cron(${minute} ${hour} * * ? *)`);
      expect(rule.Properties?.State).toBe('ENABLED');
      const targets = rule.Properties?.Targets as Record<string, any>[];
      expect(targets).toHaveLength(1);
      expect(refId(targets[0]!.Arn)).toBe(functionOf(consumer).id);
      expect(targets[0]!.RetryPolicy).toEqual({ MaximumRetryAttempts: 4, MaximumEventAgeInSeconds: 7200 });
      const dlq = refId(targets[0]!.DeadLetterConfig.Arn)!;
      expect(queues[dlq]?.Type).toBe('AWS::SQS::Queue');
      expect(notEmptyAlarmsOf(dlq)).toHaveLength(1);
    },
  );

  it.each(scheduleConsumers)(
    "%s: EventBridge may invoke the function only from that rule, and may send only that rule's events to the DLQ",
    (_, consumer) => {
      const [ruleId, rule] = ruleOf(consumer);
      const permissions = Object.values(resourcesOf(template, 'AWS::Lambda::Permission')).filter(
        (p) => refId(p.Properties?.FunctionName) === functionOf(consumer).id,
      );
      expect(permissions.map((p) => p.Properties)).toEqual([
        expect.objectContaining({ Principal: 'events.amazonaws.com', SourceArn: { 'Fn::GetAtt': [ruleId, 'Arn'] } }),
      ]);
      const dlq = refId((propsOf(rule, ruleId).Targets as Record<string, any>[])[0]!.DeadLetterConfig.Arn)!;
      const allows = Object.values(resourcesOf(template, 'AWS::SQS::QueuePolicy'))
        .filter((p) => (propsOf(p).Queues as unknown[]).some((q) => refId(q) === dlq))
        .flatMap((p) => propsOf(p).PolicyDocument.Statement as Record<string, any>[])
        .filter((s) => s.Effect === 'Allow');
      expect(allows).toEqual([
        expect.objectContaining({
          Action: 'sqs:SendMessage',
          Principal: { Service: 'events.amazonaws.com' },
          Condition: { ArnEquals: { 'aws:SourceArn': { 'Fn::GetAtt': [ruleId, 'Arn'] } } },
        }),
      ]);
    },
  );

  it.each(scheduleConsumers)(
    "%s: an alarm on the function's Errors notifies the alarm topic (a run that fails inside Lambda never reaches the DLQ)",
    (_, consumer) => {
      const errors = Object.values(alarms).filter(
        (a) =>
          a.Properties?.Namespace === 'AWS/Lambda' &&
          a.Properties?.MetricName === 'Errors' &&
          refId(a.Properties?.Dimensions?.[0]?.Value) === functionOf(consumer).id,
      );
      expect(errors).toHaveLength(1);
      expect(errors[0]!.Properties).toMatchObject({
        Threshold: 0,
        ComparisonOperator: 'GreaterThanThreshold',
        AlarmActions: [{ Ref: topicId }],
      });
    },
  );
});

describe('consumer permissions follow the row', () => {
  it.each(CONSUMERS.map((c) => [c.id, c] as const))(
    '%s may send only to the queues of its sendsTo (a stream consumer also to its on-failure destination) and gets exactly their URL variables',
    (_, consumer) => {
      const onFailure = stack.pipeline.onFailure.get(consumer.id);
      const expected = [
        ...(consumer.sendsTo ?? []).map(workQueueId),
        ...(onFailure ? [logicalId(onFailure.queue)] : []),
      ].sort();
      expect(resourcesAllowing(consumer, 'sqs:SendMessage')).toEqual(expected);
      const variables = functionOf(consumer).props.Environment.Variables;
      for (const id of QUEUE_IDS) {
        if (consumer.sendsTo?.includes(id)) expect(refId(variables[QUEUES[id].envVar])).toBe(workQueueId(id));
        else expect(variables[QUEUES[id].envVar]).toBeUndefined();
      }
    },
  );

  it.each(queueConsumers)('%s may receive, delete and change visibility only on its own queue', (_, consumer) => {
    const own = [workQueueId(consumer.source.queue)];
    for (const action of ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility']) {
      expect(resourcesAllowing(consumer, action)).toEqual(own);
    }
  });

  /** The KMS actions a consumer's role allows on one key (test/infra/kms-grants.test.ts pins them all). */
  const kmsActionsOn = (consumer: ConsumerDefinition, key: 'cipher' | 'storage') =>
    actionsOf(statementsOf(consumer).filter((s) => refId(s.Resource) === kmsKeyIds(template)[key]))
      .filter((a) => a.startsWith('kms:'))
      .sort();

  it('VerificationWorker has kms:Decrypt on the cipher key (the ownership secret, the digest key, the field key) and no kms:Encrypt on any key, and no sqs:SendMessage', () => {
    const consumer = consumerById('VerificationWorker');
    const actions = actionsOf(statementsOf(consumer));
    // One statement per purpose (pinned in kms-grants.test.ts).
    expect(kmsActionsOn(consumer, 'cipher')).toEqual(['kms:Decrypt', 'kms:Decrypt', 'kms:Decrypt']);
    expect(resourcesAllowing(consumer, 'kms:Decrypt')).toContain(kmsKeyIds(template).cipher);
    expect(actions).not.toContain('kms:Encrypt');
    expect(actions).not.toContain('sqs:SendMessage');
  });

  it('StreamRouter has sqs:SendMessage on exactly the queues of its sendsTo, plus the on-failure destination Lambda sends failed batches to with its role; and no use of the cipher key but decrypting the field key', () => {
    const consumer = consumerById('StreamRouter');
    const onFailure = logicalId(stack.pipeline.onFailure.get('StreamRouter')!.queue);
    expect(resourcesAllowing(consumer, 'sqs:SendMessage')).toEqual(
      [...consumer.sendsTo!.map(workQueueId), onFailure].sort(),
    );
    // The field key only: it opens an account image's number and seals it in the event it records (pinned in kms-grants.test.ts).
    expect(kmsActionsOn(consumer, 'cipher')).toEqual(['kms:Decrypt']);
    // The storage key only as the stream and the queues ask; the table's use is its tenant
    // role's (pinned in kms-grants.test.ts).
    expect(kmsActionsOn(consumer, 'storage')).toEqual(['kms:Decrypt', 'kms:Decrypt', 'kms:GenerateDataKey']);
    expect(refId(functionOf(consumer).props.Environment.Variables[CONFIG_ENV.cipherKeyArn])).toBe(
      kmsKeyIds(template).cipher,
    );
  });

  it("StreamRouter reads only this table's stream: the stream read actions on its stream ARN, DescribeStream on nothing else", () => {
    const consumer = consumerById('StreamRouter');
    const streamArn = { 'Fn::GetAtt': [tableId, 'StreamArn'] };
    const onStream = statementsOf(consumer).filter((s) => JSON.stringify(s.Resource) === JSON.stringify(streamArn));
    expect(actionsOf(onStream).sort()).toEqual([
      'dynamodb:DescribeStream',
      'dynamodb:GetRecords',
      'dynamodb:GetShardIterator',
    ]);
    expect(statementsOf(consumer).filter((s) => actionsOf([s]).includes('dynamodb:DescribeStream'))).toEqual(onStream);
  });

  it('StatementCodeExpiry has no sqs permission and no kms permission but the table’s (kms:Decrypt on the storage key, via DynamoDB) and the field key’s (the accounts it reads)', () => {
    const consumer = consumerById('StatementCodeExpiry');
    const actions = actionsOf(statementsOf(consumer));
    expect(actions.filter((a) => a.startsWith('sqs:'))).toEqual([]);
    const kms = statementsOf(consumer).filter((s) => actionsOf([s]).some((a) => a.startsWith('kms:')));
    expect(kms).toEqual([
      {
        Effect: 'Allow',
        Action: 'kms:Decrypt',
        Resource: { 'Fn::GetAtt': [kmsKeyIds(template).cipher, 'Arn'] },
        Condition: { StringEquals: { 'kms:EncryptionContext:purpose': 'field-key' } },
      },
      {
        Effect: 'Allow',
        Action: 'kms:Decrypt',
        Resource: { 'Fn::GetAtt': [kmsKeyIds(template).storage, 'Arn'] },
        Condition: { StringEquals: { 'kms:ViaService': viaService('dynamodb') } },
      },
    ]);
  });

  it('a new consumer row is wired with no stack change: its function, source and grants', () => {
    const extra: ConsumerDefinition = {
      id: 'WebhookDeliveryProbe',
      handler: 'functions/verify-accounts/handlers/verification-worker.ts',
      source: { kind: 'queue', queue: 'webhookDeliveries', batchSize: 5 },
      table: { actions: ['GetItem'], leadingKeys: ['tenantData'] },
      timeoutSeconds: 15,
    };
    // In place of the delivery worker: a queue has one consumer.
    const others = CONSUMERS.filter((consumer) => consumer.id !== 'WebhookDeliveryWorker');
    const probe = build({ stackProps: { consumers: [...others, extra] } });
    const fn = functionByDescription(probe.template, consumerDescription(extra));
    expect(fn.props.Timeout).toBe(15);
    const queueId = probe.logicalId(probe.stack.pipeline.queues.get('webhookDeliveries')!.queue);
    const found = Object.values(resourcesOf(probe.template, 'AWS::Lambda::EventSourceMapping')).filter(
      (m) => refId(m.Properties?.FunctionName) === fn.id,
    );
    expect(found.map((m) => m.Properties)).toEqual([
      expect.objectContaining({
        EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
        BatchSize: 5,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      }),
    ]);
    const allowed = statementsOfRole(probe.template, refId(fn.props.Role)!).filter((s) => s.Effect === 'Allow');
    const actions = actionsOf(allowed);
    // Its tenants' records through its tenant role only, which may do exactly what the row says.
    expect(actions.filter((a) => a.startsWith('dynamodb:'))).toEqual([]);
    const tenantRole = refId(fn.props.Environment.Variables.TENANT_ROLE_ARN);
    expect(tenantRole).toBeDefined();
    const tenantActions = actionsOf(statementsOfRole(probe.template, tenantRole!).filter((s) => s.Effect === 'Allow'));
    expect(tenantActions.filter((a) => a.startsWith('dynamodb:'))).toEqual(['dynamodb:GetItem']);
    expect(actions).not.toContain('sqs:SendMessage');
  });

  it('refuses two consumers on one queue', () => {
    const [, consumer] = queueConsumers[0]!;
    expect(() => buildApp({ stackProps: { consumers: [...CONSUMERS, { ...consumer, id: 'Twin' }] } })).toThrow(
      /two consumers/,
    );
  });
});

describe('email (SES) only with context emailSender', () => {
  const sesStatements = (t: Template) =>
    Object.values(resourcesOf(t, 'AWS::IAM::Policy'))
      .flatMap((p) => p.Properties?.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[])
      .filter((s) => actionsOf([s as never]).some((a) => a.startsWith('ses:')));
  const emailSenderVariables = (t: Template) =>
    Object.values(resourcesOf(t, 'AWS::Lambda::Function'))
      .map((f) => [f.Properties?.Description, f.Properties?.Environment?.Variables?.[CONFIG_ENV.emailSender]] as const)
      .filter(([, value]) => value !== undefined);

  it('without emailSender no function may use SES and none gets EMAIL_SENDER (emails are skipped)', () => {
    expect(sesStatements(template)).toEqual([]);
    expect(emailSenderVariables(template)).toEqual([]);
  });

  const senders = CONSUMERS.filter((c) => c.sendsEmail);

  it("with emailSender, exactly the sendsEmail consumers get ses:SendEmail on the sender domain's SES identity and EMAIL_SENDER", () => {
    expect(senders.length).toBeGreaterThan(0);
    const { template: t } = build({ context: { emailSender: 'no-reply@Verify.Example.com' } });
    for (const consumer of senders) {
      const fn = functionByDescription(t, consumerDescription(consumer)).props;
      expect(fn.Environment.Variables[CONFIG_ENV.emailSender]).toBe('no-reply@Verify.Example.com');
      const ses = statementsOfRole(t, refId(fn.Role)!).filter((s) => actionsOf([s]).some((a) => a.startsWith('ses:')));
      expect(ses).toEqual([
        {
          Effect: 'Allow',
          Action: 'ses:SendEmail',
          Resource: 'arn:aws:ses:eu-west-1:123456789012:identity/verify.example.com',
        },
      ]);
    }
    expect(sesStatements(t)).toHaveLength(senders.length);
    expect(
      emailSenderVariables(t)
        .map(([d]) => d)
        .sort(),
    ).toEqual(senders.map(consumerDescription).sort());
    expect(emailSenderVariables(t).map(([d]) => d)).not.toEqual(expect.arrayContaining(ROUTES.map(routeKey)));
  });

  it('context emailIdentityArn names the identity instead (e.g. a verified address)', () => {
    const arn = 'arn:aws:ses:eu-west-1:123456789012:identity/no-reply@example.com';
    const { template: t } = build({ context: { emailSender: 'no-reply@example.com', emailIdentityArn: arn } });
    expect(sesStatements(t).map((s) => s.Resource)).toEqual(senders.map(() => arn));
  });

  it('refuses an emailSender that is not an address, a malformed emailIdentityArn, and emailIdentityArn alone', () => {
    expect(() => buildApp({ context: { emailSender: 'not-an-address' } })).toThrow(/emailSender/);
    expect(() => buildApp({ context: { emailSender: 'a@example.com', emailIdentityArn: 'example.com' } })).toThrow(
      /emailIdentityArn/,
    );
    expect(() =>
      buildApp({ context: { emailIdentityArn: 'arn:aws:ses:eu-west-1:123456789012:identity/example.com' } }),
    ).toThrow(/emailSender/);
  });
});

describe('alarm topic', () => {
  it('is the one topic, and every alarm of the stack notifies it when it fires and when it clears', () => {
    expect(Object.keys(resourcesOf(template, 'AWS::SNS::Topic'))).toHaveLength(1);
    expect(resourcesOf(monitoring, 'AWS::SNS::Topic')).toEqual({});
    expect(Object.keys(alarms).length).toBeGreaterThan(0);
    for (const alarm of Object.values(alarms)) {
      expect(alarm.Properties?.AlarmActions).toEqual([{ Ref: topicId }]);
      expect(alarm.Properties?.OKActions).toEqual([{ Ref: topicId }]);
    }
  });

  it('is encrypted with a KMS key of its own, rotated, which CloudWatch may use to publish', () => {
    const keyId = kmsKeyIds(template).alarms;
    expect(refId(resourcesOf(template, 'AWS::SNS::Topic')[topicId!]!.Properties?.KmsMasterKeyId)).toBe(keyId);
    const key = resourcesOf(template, 'AWS::KMS::Key')[keyId]!.Properties!;
    expect(key.EnableKeyRotation).toBe(true);
    expect(key.KeyPolicy.Statement).toContainEqual(
      expect.objectContaining({
        Effect: 'Allow',
        Principal: { Service: 'cloudwatch.amazonaws.com' },
        Action: ['kms:Decrypt', 'kms:GenerateDataKey*'],
      }),
    );
  });

  it("accepts TLS publishes only, and CloudWatch may publish only for this account's alarms", () => {
    const statements = Object.values(resourcesOf(template, 'AWS::SNS::TopicPolicy')).flatMap(
      (p) => p.Properties?.PolicyDocument.Statement as Record<string, any>[],
    );
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: 'Deny',
        Action: 'sns:Publish',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      }),
    );
    expect(statements.filter((s) => s.Effect === 'Allow')).toEqual([
      expect.objectContaining({
        Action: 'sns:Publish',
        Principal: { Service: 'cloudwatch.amazonaws.com' },
        Condition: {
          ArnLike: { 'aws:SourceArn': 'arn:aws:cloudwatch:eu-west-1:123456789012:alarm:*' },
          StringEquals: { 'aws:SourceAccount': '123456789012' },
        },
      }),
    ]);
  });

  it('has its ARN as the stack output AlarmTopicArn', () => {
    template.hasOutput('AlarmTopicArn', { Value: { Ref: topicId } });
  });
});

describe('webhook delivery bounds its concurrency', () => {
  it('caps the delivery worker with maxConcurrency, so a burst cannot take the account’s concurrency', () => {
    const limits = Object.values(mappings).flatMap((m) => {
      const max = (m.Properties as { ScalingConfig?: { MaximumConcurrency?: number } }).ScalingConfig
        ?.MaximumConcurrency;
      return max ? [max] : [];
    });
    expect(limits).toEqual([50]);
  });
});
