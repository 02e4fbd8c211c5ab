import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

/**
 * The floor of issue 11: what the mandated SDK costs on its own. One GetCommand through the
 * document client, created at module scope as a plain Lambda would, and nothing else: no
 * middleware, logger, metrics or validation. test/bench/bundles.ts bundles it as one more
 * route of the stack, so it gets exactly the stack's esbuild options.
 */
const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const tableName = process.env.TABLE_NAME;

export const handler = async (event: { pathParameters?: { id?: string } }) => {
  const id = event.pathParameters?.id ?? 'missing';
  const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: { pk: id, sk: id } }));
  return { statusCode: Item ? 200 : 404, body: JSON.stringify(Item ?? { error: 'not_found' }) };
};
