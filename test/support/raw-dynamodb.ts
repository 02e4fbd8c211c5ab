import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { AwsCredentialIdentity } from '@aws-sdk/types';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '#lib/local/aws-account';

// The SDK's own DynamoDB client (no document client, no retry wrapper of ours), as a
// handler's client meets DynamoDB Local or a local proxy in front of it (the fault proxy,
// the IAM stand-in), and the error it ends with when it gives up.

/** A raw DynamoDB client of `endpoint`, with the SDK's defaults, signing as `credentials` (the functions' own key unless given). */
export const rawDynamoDbClient = (
  endpoint: string,
  credentials: AwsCredentialIdentity = LOCAL_CREDENTIALS,
): DynamoDBClient => new DynamoDBClient({ region: LOCAL_REGION, endpoint, credentials });

/** The error `promise` rejects with (the SDK's, with its `name`, `$fault` and `$metadata`); throws when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<Error & Record<string, any>> {
  try {
    await promise;
  } catch (error) {
    return error as Error & Record<string, any>;
  }
  throw new Error('expected a rejection');
}
