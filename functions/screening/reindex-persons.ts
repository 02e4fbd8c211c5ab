import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ENTITY } from '#shared/db/entities';
import { screeningShardOf } from '#shared/db/persons/item';
import { personKeys } from '#shared/db/persons/keys';

// A one-off upgrade step for a table written before the re-screens walked the persons
// (docs/deploy.md#upgrading): persons stored then carry a `PNAME#<folded name>` entry in
// byLookup instead of their screening shard's `PSCREEN#<shard>`, so no re-screen would
// reach them. Run with the operator's credentials (`npm run persons:reindex`), like the
// list loads: no role of the stack may Scan the table.

/** The legacy index entry's prefix. */
const LEGACY_PREFIX = 'PNAME#';

/**
 * Moves every person still indexed by folded name to its screening shard, page by page;
 * the number moved. Safe to repeat and to run beside the service: each move is
 * conditional on the legacy entry, so a person written meanwhile is left as it is.
 */
export async function reindexPersons(db: DynamoDBDocumentClient, tableName: string): Promise<number> {
  let moved = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: 'entity = :person AND begins_with(gsi2pk, :legacy)',
        ProjectionExpression: 'pk, sk, tenant, id',
        ExpressionAttributeValues: { ':person': ENTITY.person, ':legacy': LEGACY_PREFIX },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      const tenant = String(item.tenant);
      const id = String(item.id);
      try {
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { pk: item.pk, sk: item.sk },
            UpdateExpression: 'SET gsi2pk = :shard, gsi2sk = :order',
            ConditionExpression: 'begins_with(gsi2pk, :legacy)',
            ExpressionAttributeValues: {
              ':shard': personKeys.screening(screeningShardOf(tenant, id)),
              ':order': personKeys.screeningOrder(tenant, id),
              ':legacy': LEGACY_PREFIX,
            },
          }),
        );
        moved++;
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return moved;
}
