import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { dataKeyGeneratorDescription } from '#lib/constructs/data-key';
import {
  CONSUMERS,
  type ConsumerDefinition,
  deployedRoutes,
  ROUTES,
  type RouteDefinition,
  takesIdempotencyKey,
} from '#lib/service/index';
import { DATA_KEYS, type DataKeyPurpose } from '#shared/data-key/index';
import { buildApp, functionByDescription, kmsKeyIds, resourcesOf } from './harness';

/**
 * The data keys (docs/data-model.md#digests, #field-encryption): each generated once by
 * KMS, never replaced by a deploy, and held by exactly the functions whose code needs it.
 */
const { stack } = buildApp();
const template = Template.fromStack(stack);

interface PinnedDataKey {
  /**
   * The resource's logical id, as first deployed. A new id would make CloudFormation create
   * a new resource, i.e. a new key, and orphan every stored digest or sealed value: never
   * change it.
   */
  readonly logicalId: string;
  /** Its service token: CloudFormation refuses to move a custom resource to another one. */
  readonly generatorLogicalId: string;
  /**
   * Which functions hold it, from their rows (derived here, not by the stack's helpers), so
   * adding a route needs no line here; `examples` are a few written out by hand.
   */
  readonly holds: (row: RouteDefinition | ConsumerDefinition) => boolean;
  readonly examples: { readonly holders: readonly string[]; readonly others: readonly string[] };
}

const PINNED: Record<DataKeyPurpose, PinnedDataKey> = {
  'digest-key': {
    logicalId: 'DigestKey01D849A7',
    generatorLogicalId: 'DigestKeyGeneratorFE898904',
    // Every route taking an `Idempotency-Key` (POST, PATCH, DELETE: the HTTP stack keys and
    // fingerprints its record), plus those whose own code digests an account number, a
    // customer reference or a statement code.
    holds: (row) => row.digestKey === true || ('method' in row && takesIdempotencyKey(row)),
    examples: { holders: ['CreatePerson', 'ListPersons', 'VerificationWorker'], others: ['GetPerson', 'StreamRouter'] },
  },
  'field-key': {
    logicalId: 'FieldKey5DAFDAA4',
    generatorLogicalId: 'FieldKeyGeneratorDDD1AF4E',
    // Every function whose row stores or reads an account number (`fieldKey`): an account
    // item, an event that may carry one, or an account route's answer kept for replay.
    holds: (row) => row.fieldKey === true,
    examples: { holders: ['GetVerifyAccount', 'StreamRouter', 'ListEvents'], others: ['RedeliverEvent', 'GetPerson'] },
  },
};

const functions = new Map([...stack.functions, ...stack.pipeline.consumers]);

const environmentOf = (fn: typeof functions extends Map<string, infer F> ? F : never): Record<string, unknown> => {
  const id = stack.getLogicalId(fn.node.defaultChild as CfnElement);
  return resourcesOf(template, 'AWS::Lambda::Function')[id]?.Properties?.Environment.Variables ?? {};
};

it('every deployed route and consumer is a function of the stack (the holders below are checked against all of them)', () => {
  expect([...functions.keys()].sort()).toEqual([...deployedRoutes(ROUTES), ...CONSUMERS].map((row) => row.id).sort());
});

describe.each(Object.entries(PINNED) as [DataKeyPurpose, PinnedDataKey][])('the %s', (purpose, pinned) => {
  const spec = DATA_KEYS[purpose];
  const resources = resourcesOf(template, spec.resourceType);

  it('is one custom resource with a pinned logical id, retained on delete and on replacement', () => {
    expect(Object.keys(resources)).toEqual([pinned.logicalId]);
    expect(resources[pinned.logicalId]).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });

  it('is generated under the cipher key by its own pinned generator, from no property a deploy could change but the key', () => {
    expect(resources[pinned.logicalId]?.Properties).toEqual({
      ServiceToken: { 'Fn::GetAtt': [pinned.generatorLogicalId, 'Arn'] },
      ServiceTimeout: '300',
      KeyArn: { 'Fn::GetAtt': [kmsKeyIds(template).cipher, 'Arn'] },
    });
    expect(functionByDescription(template, dataKeyGeneratorDescription(purpose)).id).toBe(pinned.generatorLogicalId);
  });

  const rows = [...deployedRoutes(ROUTES), ...CONSUMERS];

  it('is held by exactly the functions whose rows need it: its ciphertext in their environment', () => {
    const holders = [...functions]
      .filter(([, fn]) => {
        const ciphertext = environmentOf(fn)[spec.ciphertextEnv];
        if (ciphertext !== undefined) expect(ciphertext).toEqual({ Ref: pinned.logicalId });
        return ciphertext !== undefined;
      })
      .map(([id]) => id);
    expect(holders.sort()).toEqual(
      rows
        .filter(pinned.holds)
        .map((row) => row.id)
        .sort(),
    );
  });

  it('written out: some functions that hold it and some that do not', () => {
    const holderIds = rows.filter(pinned.holds).map((row) => row.id);
    expect(holderIds).toEqual(expect.arrayContaining([...pinned.examples.holders]));
    for (const id of pinned.examples.others) expect(holderIds).not.toContain(id);
  });
});
