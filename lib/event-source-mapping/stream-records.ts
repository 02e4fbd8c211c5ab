import type { AttributeValue as ApiAttributeValue, _Record as ApiRecord } from '@aws-sdk/client-dynamodb-streams';
import type { AttributeValue, DynamoDBRecord, StreamRecord } from 'aws-lambda';

// A record from the DynamoDB Streams API (as the SDK returns it) in the shape Lambda hands
// to a function (DynamoDBStreamEvent.Records[n]). Lambda adds `eventSourceARN`, gives
// `ApproximateCreationDateTime` in epoch seconds and attribute values as plain JSON
// (binary as base64), so these differ from the SDK's Date and Uint8Array.

export interface StreamSource {
  readonly streamArn: string;
  /** The region Lambda names: the stream's in AWS; locally the runtime's, as DynamoDB Local's ARNs say `ddblocal`. */
  readonly region: string;
}

export function toLambdaRecord(record: ApiRecord, source: StreamSource): DynamoDBRecord {
  const stream = record.dynamodb ?? {};
  const dynamodb: StreamRecord = {
    ApproximateCreationDateTime:
      stream.ApproximateCreationDateTime && Math.floor(stream.ApproximateCreationDateTime.getTime() / 1000),
    Keys: stream.Keys && toLambdaImage(stream.Keys),
    NewImage: stream.NewImage && toLambdaImage(stream.NewImage),
    OldImage: stream.OldImage && toLambdaImage(stream.OldImage),
    SequenceNumber: stream.SequenceNumber,
    SizeBytes: stream.SizeBytes,
    StreamViewType: stream.StreamViewType,
  };
  return withoutUndefined({
    eventID: record.eventID,
    eventName: record.eventName,
    // Lambda's record format version; the Streams API reports the same.
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: source.region,
    dynamodb: withoutUndefined(dynamodb),
    eventSourceARN: source.streamArn,
    // Present on TTL deletions; Lambda spells the SDK's Type/PrincipalId in lower camel case.
    userIdentity: record.userIdentity && {
      type: record.userIdentity.Type,
      principalId: record.userIdentity.PrincipalId,
    },
  });
}

export function toLambdaImage(image: Record<string, ApiAttributeValue>): Record<string, AttributeValue> {
  return Object.fromEntries(Object.entries(image).map(([name, value]) => [name, toLambdaValue(value)]));
}

function toLambdaValue(value: ApiAttributeValue): AttributeValue {
  if (value.S !== undefined) return { S: value.S };
  if (value.N !== undefined) return { N: value.N };
  if (value.B !== undefined) return { B: base64(value.B) };
  if (value.BOOL !== undefined) return { BOOL: value.BOOL };
  if (value.NULL !== undefined) return { NULL: value.NULL };
  if (value.SS !== undefined) return { SS: value.SS };
  if (value.NS !== undefined) return { NS: value.NS };
  if (value.BS !== undefined) return { BS: value.BS.map(base64) };
  if (value.L !== undefined) return { L: value.L.map(toLambdaValue) };
  if (value.M !== undefined) return { M: toLambdaImage(value.M) };
  // The Streams SDK hands an empty map over as `{}` (an empty list keeps its `L`).
  if (Object.keys(value).length === 0) return { M: {} };
  throw new Error(`unknown attribute value type: ${Object.keys(value).join(', ')}`);
}

const base64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

/** JSON has no `undefined`: Lambda's events simply lack absent fields (e.g. OldImage on INSERT). */
function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
