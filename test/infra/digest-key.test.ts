import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { ENV as CONFIG_ENV } from '#shared/config';
import { DATA_KEYS } from '#shared/data-key/index';
import { dataKeyGeneratorDescription } from '../../lib/constructs/data-key';
import { CONSUMERS, deployedRoutes, ROUTES } from '../../lib/service';
import { buildApp, functionByDescription, kmsKeyIds, resourcesOf } from './harness';

/**
 * The digest key (docs/data-model.md#digests): generated once by KMS, never replaced by a
 * deploy, and held by exactly the functions that digest a secret or PII.
 */
const { stack } = buildApp();
const DIGEST_KEY_RESOURCE_TYPE = DATA_KEYS['digest-key'].resourceType;
const DIGEST_KEY_GENERATOR_DESCRIPTION = dataKeyGeneratorDescription('digest-key');
const template = Template.fromStack(stack);

/**
 * Written by hand, so that a function gaining or losing the key is a reviewed change: every
 * route taking an `Idempotency-Key` (POST, PATCH, DELETE: the HTTP stack keys and
 * fingerprints its record), plus those whose own code digests an account number, a
 * customer reference or a statement code.
 */
const HOLDERS = [
  'CreateVerifyAccount',
  'ListVerifyAccounts',
  'VerifyAccountControl',
  'VerifyAccountDebits',
  'CreatePerson',
  'ListPersons',
  'UpdatePerson',
  'ReplacePerson',
  'UpsertPerson',
  'ClosePerson',
  'RedeliverEvent',
  'InvokeWebhook',
  'CreateWebhookConfiguration',
  'DeleteWebhookConfiguration',
  'CreateWebhookSecret',
  'VerificationWorker',
].sort();

/**
 * The resource's logical id, as first deployed. A new id would make CloudFormation create
 * a new resource, i.e. a new key, and orphan every stored digest: never change it.
 */
const DIGEST_KEY_LOGICAL_ID = 'DigestKey01D849A7';
/** Its service token: CloudFormation refuses to move a custom resource to another one. */
const GENERATOR_LOGICAL_ID = 'DigestKeyGeneratorFE898904';

describe('the digest key', () => {
  const resources = resourcesOf(template, DIGEST_KEY_RESOURCE_TYPE);

  it('is one custom resource with a pinned logical id, retained on delete and on replacement', () => {
    expect(Object.keys(resources)).toEqual([DIGEST_KEY_LOGICAL_ID]);
    expect(resources[DIGEST_KEY_LOGICAL_ID]).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });

  it('is generated under the cipher key by the pinned generator, from no property a deploy could change but the key', () => {
    expect(resources[DIGEST_KEY_LOGICAL_ID]?.Properties).toEqual({
      ServiceToken: { 'Fn::GetAtt': [GENERATOR_LOGICAL_ID, 'Arn'] },
      ServiceTimeout: '300',
      KeyArn: { 'Fn::GetAtt': [kmsKeyIds(template).cipher, 'Arn'] },
    });
    expect(functionByDescription(template, DIGEST_KEY_GENERATOR_DESCRIPTION).id).toBe(GENERATOR_LOGICAL_ID);
  });

  it('is held by exactly the functions that digest a secret or PII: its ciphertext in their environment', () => {
    const fns = new Map([...stack.functions, ...stack.pipeline.consumers]);
    expect([...fns.keys()].sort()).toEqual([...deployedRoutes(ROUTES), ...CONSUMERS].map((row) => row.id).sort());
    const holders = [...fns]
      .filter(([, fn]) => {
        const id = stack.getLogicalId(fn.node.defaultChild as CfnElement);
        const variables = resourcesOf(template, 'AWS::Lambda::Function')[id]?.Properties?.Environment.Variables;
        const ciphertext = variables[CONFIG_ENV.digestKeyCiphertext];
        if (ciphertext !== undefined) expect(ciphertext).toEqual({ Ref: DIGEST_KEY_LOGICAL_ID });
        return ciphertext !== undefined;
      })
      .map(([id]) => id);
    expect(holders.sort()).toEqual(HOLDERS);
  });
});
