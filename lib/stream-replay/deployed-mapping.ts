import { InvokeCommand, type LambdaClient, ListEventSourceMappingsCommand } from '@aws-sdk/client-lambda';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import type { FilterPattern } from '#lib/event-source-mapping/stream-filter';
import { functionNameOf } from './on-failure-record';

// The replay's ports in AWS, on Lambda's API: the deployed event source mapping that fed
// the function from the stream (its filters, as Lambda applies them), and a synchronous
// Invoke of the function with the batch, as the mapping invokes it.

/** What the replay needs of the mapping. */
export interface DeployedMapping {
  readonly filters: readonly FilterPattern[];
  readonly parallelizationFactor: number;
}

/** The mapping through which the function reads the stream (ListEventSourceMappings). */
export async function deployedMapping(
  lambda: Pick<LambdaClient, 'send'>,
  functionArn: string,
  streamArn: string,
): Promise<DeployedMapping> {
  const mappings = [];
  let marker: string | undefined;
  do {
    const page = await lambda.send(
      new ListEventSourceMappingsCommand({ FunctionName: functionArn, EventSourceArn: streamArn, Marker: marker }),
    );
    mappings.push(...(page.EventSourceMappings ?? []));
    marker = page.NextMarker ?? undefined;
  } while (marker);
  const [mapping, other] = mappings;
  if (!mapping || other) {
    throw new Error(
      `${functionNameOf(functionArn)} has ${mappings.length} event source mappings on ${streamArn}, not one: ` +
        'the record names another stack or stream, or the stack changed since',
    );
  }
  return {
    filters: (mapping.FilterCriteria?.Filters ?? []).map((filter) => JSON.parse(filter.Pattern ?? '{}')),
    parallelizationFactor: mapping.ParallelizationFactor ?? 1,
  };
}

/** Invokes the function synchronously with the event; resolves with its answer, rejects with its error. */
export function deployedInvoke(
  lambda: Pick<LambdaClient, 'send'>,
  functionArn: string,
): (event: DynamoDBStreamEvent) => Promise<unknown> {
  return async (event) => {
    const answer = await lambda.send(
      new InvokeCommand({
        FunctionName: functionArn,
        InvocationType: 'RequestResponse',
        Payload: Buffer.from(JSON.stringify(event)),
      }),
    );
    const text = answer.Payload ? Buffer.from(answer.Payload).toString('utf8') : '';
    const payload: unknown = text ? JSON.parse(text) : null;
    if (answer.FunctionError) {
      const { errorType, errorMessage } = (payload ?? {}) as { errorType?: string; errorMessage?: string };
      throw new Error(`${answer.FunctionError}: ${errorType ?? 'Error'}: ${errorMessage ?? text}`);
    }
    return payload;
  };
}
