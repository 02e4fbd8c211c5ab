import { describe, expect, it } from 'vitest';
import { tableDefinition } from '#lib/local/table';
import { TABLE_SCHEMA } from '#shared/db/schema';

describe('local table definition', () => {
  const definition = tableDefinition('t');

  it('is the schema table: on-demand, string keys, stream with both images', () => {
    expect(definition).toMatchObject({
      TableName: 't',
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
    });
    expect(definition.AttributeDefinitions?.every((attribute) => attribute.AttributeType === 'S')).toBe(true);
  });

  it('has every schema index, projecting only its non-key attributes', () => {
    expect(definition.GlobalSecondaryIndexes).toEqual(
      Object.values(TABLE_SCHEMA.indexes).map((index) => ({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.nonKeyAttributes] },
      })),
    );
  });
});
