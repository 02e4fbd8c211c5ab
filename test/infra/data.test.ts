import { describe, expect, it } from 'vitest';
import { TABLE_SCHEMA } from '#shared/db/schema';
import { kmsKeyIds, resourcesOf, synthTemplates } from './harness';

/** The stack's template and its monitoring nested stack's (the alarms and the dashboard). */
const { template, monitoring } = synthTemplates();

describe('data table', () => {
  const tables = Object.values(resourcesOf(template, 'AWS::DynamoDB::Table'));
  const table = tables[0]!;
  const props = table.Properties!;

  it('is the single table of the service', () => {
    expect(tables).toHaveLength(1);
  });

  it('is keyed by the schema pk/sk strings and billed on demand', () => {
    expect(props.KeySchema).toEqual([
      { AttributeName: TABLE_SCHEMA.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE_SCHEMA.sortKey, KeyType: 'RANGE' },
    ]);
    expect(props.AttributeDefinitions).toEqual(
      expect.arrayContaining([
        { AttributeName: TABLE_SCHEMA.partitionKey, AttributeType: 'S' },
        { AttributeName: TABLE_SCHEMA.sortKey, AttributeType: 'S' },
      ]),
    );
    expect(props.BillingMode).toBe('PAY_PER_REQUEST');
  });

  it('streams new and old images for the stream router', () => {
    expect(props.StreamSpecification).toEqual({ StreamViewType: 'NEW_AND_OLD_IMAGES' });
  });

  it('has point-in-time recovery and TTL on the schema ttl attribute', () => {
    expect(props.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(props.TimeToLiveSpecification).toEqual({ AttributeName: TABLE_SCHEMA.ttlAttribute, Enabled: true });
  });

  it('has exactly the schema indexes, each projecting exactly its non-key attributes (INCLUDE)', () => {
    const expected = Object.values(TABLE_SCHEMA.indexes).map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' },
        { AttributeName: index.sortKey, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.nonKeyAttributes].sort() },
    }));
    const actual = (props.GlobalSecondaryIndexes as { Projection: { NonKeyAttributes: string[] } }[]).map((gsi) => ({
      ...gsi,
      Projection: { ...gsi.Projection, NonKeyAttributes: [...gsi.Projection.NonKeyAttributes].sort() },
    }));
    expect(actual).toEqual(expected);
  });

  it('survives stack deletion and replacement and refuses to be deleted', () => {
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.UpdateReplacePolicy).toBe('Retain');
    expect(props.DeletionProtectionEnabled).toBe(true);
  });

  it('is encrypted at rest with the customer-managed storage key (KMS), not an AWS-owned or AWS-managed one', () => {
    expect(props.SSESpecification).toEqual({
      SSEEnabled: true,
      SSEType: 'KMS',
      KMSMasterKeyId: { 'Fn::GetAtt': [kmsKeyIds(template).storage, 'Arn'] },
    });
  });
});

describe('KMS keys', () => {
  const keys = resourcesOf(template, 'AWS::KMS::Key');

  it('are three: the storage key (table, queues), the cipher key (fields) and the alarm topic key', () => {
    const { cipher, storage, alarms } = kmsKeyIds(template);
    expect(Object.keys(keys).sort()).toEqual([cipher, storage, alarms].sort());
    expect(new Set([cipher, storage, alarms]).size).toBe(3);
  });

  it.each(['cipher', 'storage'] as const)(
    'the %s key is one symmetric key with yearly rotation, retained on stack deletion and replacement, with a 30-day deletion window',
    (role) => {
      const key = keys[kmsKeyIds(template)[role]]!;
      expect(key.Properties?.EnableKeyRotation).toBe(true);
      expect(key.Properties?.KeySpec ?? 'SYMMETRIC_DEFAULT').toBe('SYMMETRIC_DEFAULT');
      expect(key.Properties?.PendingWindowInDays).toBe(30);
      expect(key.DeletionPolicy).toBe('Retain');
      expect(key.UpdateReplacePolicy).toBe('Retain');
    },
  );

  it.each(['cipher', 'storage'] as const)(
    'the %s key policy only delegates to IAM in this account (no service, no other account, no "*" principal): who may use it is what the function roles are granted',
    (role) => {
      const statements = keys[kmsKeyIds(template)[role]]!.Properties?.KeyPolicy.Statement as Record<string, unknown>[];
      expect(statements).toEqual([
        { Effect: 'Allow', Principal: { AWS: 'arn:aws:iam::123456789012:root' }, Action: 'kms:*', Resource: '*' },
      ]);
    },
  );
});

describe('physical names', () => {
  it('are never hard-coded, so two stages fit in one account', () => {
    const named = [
      ['AWS::DynamoDB::Table', 'TableName'],
      ['AWS::Lambda::Function', 'FunctionName'],
      ['AWS::IAM::Role', 'RoleName'],
      ['AWS::Logs::LogGroup', 'LogGroupName'],
      ['AWS::Cognito::UserPool', 'UserPoolName'],
      ['AWS::KMS::Alias', 'AliasName'],
      ['AWS::SQS::Queue', 'QueueName'],
      ['AWS::SNS::Topic', 'TopicName'],
      ['AWS::CloudWatch::Alarm', 'AlarmName'],
      ['AWS::Events::Rule', 'Name'],
    ] as const;
    for (const [type, property] of named) {
      for (const resource of [template, monitoring].flatMap((t) => Object.values(resourcesOf(t, type)))) {
        expect(resource.Properties?.[property], `${type}.${property}`).toBeUndefined();
      }
    }
  });
});
