import type { _Record } from '@aws-sdk/client-dynamodb-streams';
import { describe, expect, it } from 'vitest';
import { toLambdaRecord } from '#lib/event-source-mapping/stream-records';

const STREAM_ARN = 'arn:aws:dynamodb:ddblocal:000000000000:table/t/stream/2026-01-01T00:00:00.000';

/** What the SDK's GetRecords gives for a MODIFY on DynamoDB Local. */
const apiRecord: _Record = {
  eventID: 'b3617edb-3374-48bb-b815-348313a2d610',
  eventName: 'MODIFY',
  eventVersion: '1.1',
  eventSource: 'aws:dynamodb',
  awsRegion: 'ddblocal',
  dynamodb: {
    ApproximateCreationDateTime: new Date('2026-11-22T02:16:07.900Z'),
    Keys: { pk: { S: 'a' }, sk: { S: 'b' } },
    NewImage: {
      pk: { S: 'a' },
      sk: { S: 'b' },
      n: { N: '5' },
      bin: { B: new Uint8Array([1, 2, 3]) },
      set: { BS: [new Uint8Array([255])] },
      nested: { M: { list: { L: [{ BOOL: true }, { NULL: true }, { SS: ['x'] }, { NS: ['1'] }] } } },
    },
    OldImage: { pk: { S: 'a' }, sk: { S: 'b' } },
    SequenceNumber: '000000000000000000002',
    SizeBytes: 42,
    StreamViewType: 'NEW_AND_OLD_IMAGES',
  },
};

describe('stream record conversion (Streams API → Lambda DynamoDBStreamEvent record)', () => {
  const converted = toLambdaRecord(apiRecord, { streamArn: STREAM_ARN, region: 'us-east-1' });

  it('has the fields and shape Lambda delivers', () => {
    expect(converted).toEqual({
      eventID: 'b3617edb-3374-48bb-b815-348313a2d610',
      eventName: 'MODIFY',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'us-east-1',
      dynamodb: {
        ApproximateCreationDateTime: 1795313767,
        Keys: { pk: { S: 'a' }, sk: { S: 'b' } },
        NewImage: {
          pk: { S: 'a' },
          sk: { S: 'b' },
          n: { N: '5' },
          bin: { B: 'AQID' },
          set: { BS: ['/w=='] },
          nested: { M: { list: { L: [{ BOOL: true }, { NULL: true }, { SS: ['x'] }, { NS: ['1'] }] } } },
        },
        OldImage: { pk: { S: 'a' }, sk: { S: 'b' } },
        SequenceNumber: '000000000000000000002',
        SizeBytes: 42,
        StreamViewType: 'NEW_AND_OLD_IMAGES',
      },
      eventSourceARN: STREAM_ARN,
    });
  });

  it('is plain JSON: it survives a round trip unchanged, as a Lambda payload must', () => {
    expect(JSON.parse(JSON.stringify(converted))).toEqual(converted);
  });

  it('omits absent parts (no OldImage on INSERT) instead of carrying undefined', () => {
    const insert = toLambdaRecord(
      { ...apiRecord, eventName: 'INSERT', dynamodb: { ...apiRecord.dynamodb, OldImage: undefined } },
      { streamArn: STREAM_ARN, region: 'us-east-1' },
    );
    expect(Object.keys(insert.dynamodb ?? {})).not.toContain('OldImage');
    expect(Object.keys(insert)).not.toContain('userIdentity');
  });

  it('reads an empty map, which the Streams SDK hands over as {}, as the empty map Lambda delivers', () => {
    const record = toLambdaRecord(
      {
        ...apiRecord,
        dynamodb: { ...apiRecord.dynamodb, NewImage: { empty: {} as never, list: { L: [{} as never, { L: [] }] } } },
      },
      { streamArn: STREAM_ARN, region: 'us-east-1' },
    );
    expect(record.dynamodb?.NewImage).toEqual({ empty: { M: {} }, list: { L: [{ M: {} }, { L: [] }] } });
  });

  it("keeps the userIdentity of a TTL deletion, in Lambda's spelling", () => {
    const ttl = { Type: 'Service', PrincipalId: 'dynamodb.amazonaws.com' };
    const source = { streamArn: STREAM_ARN, region: 'us-east-1' };
    const removed = toLambdaRecord({ ...apiRecord, eventName: 'REMOVE', userIdentity: ttl }, source);
    expect(removed.userIdentity).toEqual({ type: 'Service', principalId: 'dynamodb.amazonaws.com' });
  });
});
