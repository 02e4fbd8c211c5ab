import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';

// Where the operator commands that write a deployed table (`lists:load`, `persons:reindex`)
// find it (docs/deploy.md#deploy): the stack's `TableName` output, by the
// stack's name as deployed, with the operator's AWS credentials and region from the usual
// environment; a table named outright wins.

/** The stack's output that names the table (lib/stack/outputs.ts). */
export const TABLE_NAME_OUTPUT = 'TableName';

/** The table to write: `table` when given, else the `TableName` output of `stack`. Throws one sentence saying what to do. */
export async function deployedTableName(
  { table, stack }: { table?: string; stack?: string },
  client = new CloudFormationClient({}),
): Promise<string> {
  if (table) return table;
  if (!stack) throw new Error('name the stack (--stack <name>) or the table (--table <name>)');
  let outputs: { OutputKey?: string; OutputValue?: string }[];
  try {
    const answer = await client.send(new DescribeStacksCommand({ StackName: stack }));
    outputs = answer.Stacks?.[0]?.Outputs ?? [];
  } catch (error) {
    throw new Error(`no stack named ${stack} in this account and region (${(error as Error).message})`);
  }
  const name = outputs.find((output) => output.OutputKey === TABLE_NAME_OUTPUT)?.OutputValue;
  if (!name) {
    throw new Error(
      `stack ${stack} has no ${TABLE_NAME_OUTPUT} output: deploy this version, or name the table with --table`,
    );
  }
  return name;
}
