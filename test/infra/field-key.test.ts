import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { ENV as CONFIG_ENV } from '#shared/config';
import { DATA_KEYS } from '#shared/data-key/index';
import { dataKeyGeneratorDescription } from '../../lib/constructs/data-key';
import { CONSUMERS, deployedRoutes, ROUTES } from '../../lib/service';
import { buildApp, functionByDescription, kmsKeyIds, resourcesOf } from './harness';

/**
 * The field key (docs/data-model.md#field-encryption): generated once by KMS, never replaced
 * by a deploy, and held by exactly the functions that store or read an account number.
 */
const { stack } = buildApp();
const template = Template.fromStack(stack);
const FIELD_KEY_RESOURCE_TYPE = DATA_KEYS['field-key'].resourceType;

/**
 * Written by hand, so that a function gaining or losing the key is a reviewed change: every
 * function that reads or writes an account item (the account routes, the verification
 * worker, the statement-code expiry), stores or reads an event that may carry an account
 * (the stream router, the test event, the event log, the delivery worker), or keeps an
 * account route's answer for replay. Redelivery reads only an event's type: not a holder.
 */
const HOLDERS = [
  'CreateVerifyAccount',
  'ListVerifyAccounts',
  'GetVerifyAccount',
  'VerifyAccountControl',
  'VerifyAccountDebits',
  'VerificationWorker',
  'StatementCodeExpiry',
  'StreamRouter',
  'ListEvents',
  'GetEvent',
  'InvokeWebhook',
  'WebhookDeliveryWorker',
].sort();

/**
 * The resource's logical id, as first deployed. A new id would make CloudFormation create
 * a new resource, i.e. a new key, and leave every sealed account number unreadable: never
 * change it.
 */
const FIELD_KEY_LOGICAL_ID = 'FieldKey5DAFDAA4';
/** Its service token: CloudFormation refuses to move a custom resource to another one. */
const GENERATOR_LOGICAL_ID = 'FieldKeyGeneratorDDD1AF4E';

describe('the field key', () => {
  const resources = resourcesOf(template, FIELD_KEY_RESOURCE_TYPE);

  it('is one custom resource with a pinned logical id, retained on delete and on replacement', () => {
    expect(Object.keys(resources)).toEqual([FIELD_KEY_LOGICAL_ID]);
    expect(resources[FIELD_KEY_LOGICAL_ID]).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });

  it('is generated under the cipher key by its own pinned generator, from no property a deploy could change but the key', () => {
    expect(resources[FIELD_KEY_LOGICAL_ID]?.Properties).toEqual({
      ServiceToken: { 'Fn::GetAtt': [GENERATOR_LOGICAL_ID, 'Arn'] },
      ServiceTimeout: '300',
      KeyArn: { 'Fn::GetAtt': [kmsKeyIds(template).cipher, 'Arn'] },
    });
    expect(functionByDescription(template, dataKeyGeneratorDescription('field-key')).id).toBe(GENERATOR_LOGICAL_ID);
  });

  it('is held by exactly the functions that store or read an account number: its ciphertext in their environment', () => {
    const fns = new Map([...stack.functions, ...stack.pipeline.consumers]);
    expect([...fns.keys()].sort()).toEqual([...deployedRoutes(ROUTES), ...CONSUMERS].map((row) => row.id).sort());
    const holders = [...fns]
      .filter(([, fn]) => {
        const id = stack.getLogicalId(fn.node.defaultChild as CfnElement);
        const variables = resourcesOf(template, 'AWS::Lambda::Function')[id]?.Properties?.Environment.Variables;
        const ciphertext = variables[CONFIG_ENV.fieldKeyCiphertext];
        if (ciphertext !== undefined) expect(ciphertext).toEqual({ Ref: FIELD_KEY_LOGICAL_ID });
        return ciphertext !== undefined;
      })
      .map(([id]) => id);
    expect(holders.sort()).toEqual(HOLDERS);
  });
});
