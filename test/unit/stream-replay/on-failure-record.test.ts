import { describe, expect, it } from 'vitest';
import { parseOnFailureRecord } from '#lib/stream-replay/on-failure-record';

/**
 * What Lambda sends to a DynamoDB stream mapping's on-failure destination (the body of a
 * message of the StreamRouter on-failure queue), as the Lambda developer guide shows it
 * ("Retaining discarded batches for a DynamoDB event source").
 */
const AWS_EXAMPLE = {
  requestContext: {
    requestId: '316aa6d0-8154-xmpl-9af7-85d5f4a6bc81',
    functionArn: 'arn:aws:lambda:us-east-2:123456789012:function:myfunction',
    condition: 'RetryAttemptsExhausted',
    approximateInvokeCount: 1,
  },
  responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
  version: '1.0',
  timestamp: '2019-11-14T00:13:49.717Z',
  DDBStreamBatchInfo: {
    shardId: 'shardId-00000001573689847184-864758bb',
    startSequenceNumber: '800000000003126276362',
    endSequenceNumber: '800000000003126276362',
    approximateArrivalOfFirstRecord: '2019-11-14T00:13:19Z',
    approximateArrivalOfLastRecord: '2019-11-14T00:13:19Z',
    batchSize: 1,
    streamArn: 'arn:aws:dynamodb:us-east-2:123456789012:table/mytable/stream/2019-11-14T00:04:06.388',
  },
};

describe('an on-failure record of a table stream mapping', () => {
  it('is read as the function that gave the batch up and the batch: shard, sequence range, size, arrival', () => {
    expect(parseOnFailureRecord(JSON.stringify(AWS_EXAMPLE))).toEqual({
      functionArn: AWS_EXAMPLE.requestContext.functionArn,
      condition: 'RetryAttemptsExhausted',
      timestamp: AWS_EXAMPLE.timestamp,
      batch: AWS_EXAMPLE.DDBStreamBatchInfo,
    });
  });

  it.each([
    ['not JSON', '{"requestContext":', /^the on-failure record is not JSON/],
    [
      'a record of another source',
      JSON.stringify({ ...AWS_EXAMPLE, DDBStreamBatchInfo: undefined, KinesisBatchInfo: {} }),
      /^the on-failure record holds no DDBStreamBatchInfo/,
    ],
    [
      'a record whose sequence numbers are not numbers',
      JSON.stringify({
        ...AWS_EXAMPLE,
        DDBStreamBatchInfo: { ...AWS_EXAMPLE.DDBStreamBatchInfo, endSequenceNumber: 'x' },
      }),
      /^the on-failure record's DDBStreamBatchInfo is not as Lambda writes it: endSequenceNumber/,
    ],
  ])('is refused in one sentence when it is %s', (_name, text, said) => {
    expect(() => parseOnFailureRecord(text)).toThrow(said);
  });
});
