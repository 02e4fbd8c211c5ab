import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { deployedTableName } from '#lib/stack/deployed-table';

/**
 * The operator commands that write a deployed table (`lists:load`, `persons:reindex`) find
 * it from the stack's name, as the stack outputs it (`TableName`), so a newcomer types the
 * name they deployed, not a generated one; `--table` overrides.
 */
const cloudFormation = mockClient(CloudFormationClient);
afterEach(() => cloudFormation.reset());

const stack = (outputs: Record<string, string>) => ({
  Stacks: [
    {
      StackName: 'VerifyService',
      CreationTime: new Date(0),
      StackStatus: 'CREATE_COMPLETE' as const,
      Outputs: Object.entries(outputs).map(([OutputKey, OutputValue]) => ({ OutputKey, OutputValue })),
    },
  ],
});

describe('deployedTableName', () => {
  it('reads the TableName output of the stack named', async () => {
    cloudFormation
      .on(DescribeStacksCommand, { StackName: 'VerifyService' })
      .resolves(stack({ ApiUrl: 'https://x/', TableName: 'VerifyService-DataTable1A2B-XYZ' }));
    expect(await deployedTableName({ stack: 'VerifyService' })).toBe('VerifyService-DataTable1A2B-XYZ');
  });

  it('takes a table named outright without asking CloudFormation', async () => {
    expect(await deployedTableName({ table: 'Explicit', stack: 'VerifyService' })).toBe('Explicit');
    expect(cloudFormation.calls()).toHaveLength(0);
  });

  it('says what to do when the stack has no TableName output (deployed before it had one)', async () => {
    cloudFormation.on(DescribeStacksCommand).resolves(stack({ ApiUrl: 'https://x/' }));
    await expect(deployedTableName({ stack: 'VerifyService' })).rejects.toThrow(
      /stack VerifyService has no TableName output: deploy this version, or name the table with --table/,
    );
  });

  it('says which stack it could not find, in one sentence', async () => {
    cloudFormation
      .on(DescribeStacksCommand)
      .rejects(Object.assign(new Error('Stack with id Nope does not exist'), { name: 'ValidationError' }));
    await expect(deployedTableName({ stack: 'Nope' })).rejects.toThrow(
      /no stack named Nope in this account and region \(Stack with id Nope does not exist\)/,
    );
  });

  it('asks for one of the two when neither is given', async () => {
    await expect(deployedTableName({})).rejects.toThrow(
      /name the stack \(--stack <name>\) or the table \(--table <name>\)/,
    );
  });
});
