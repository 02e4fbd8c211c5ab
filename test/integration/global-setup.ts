import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '#lib/local/dynamodb-local';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The one DynamoDB Local of this test run; every test file makes its own table on it. */
    dynamoEndpoint: string;
  }
}

/**
 * One JVM for the whole integration project: starting DynamoDB Local takes seconds, a
 * table milliseconds. Test files stay independent by using unique table names.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dynamo = await startDynamoDbLocal();
  project.provide('dynamoEndpoint', dynamo.endpoint);
  return () => dynamo.stop();
}
