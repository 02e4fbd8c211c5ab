import { createServer } from 'node:http';
import { consumerFunction, type LambdaInvoker } from '#lib/local/lambda-invoker';
import { closeServer, listenOnLoopback, readBody } from '#lib/local/loopback-server';
import { type ConsumerDefinition, streamFilterPattern } from '#lib/service/index';

/**
 * Lambda's API as `npm run stream:replay` calls it (`AWS_ENDPOINT_URL_LAMBDA`), in front of
 * a local runtime's invoker, for one table-stream consumer: `ListEventSourceMappings`
 * answers its mapping (filters and parallelization factor as the stack deploys them), and
 * `Invoke` of a function whose name or ARN ends in the consumer's id runs the consumer's
 * handler, answering as Lambda does (`X-Amz-Function-Error` when it fails). Every
 * invocation's event is kept.
 */
export async function startLambdaApi(consumer: ConsumerDefinition, invoker: LambdaInvoker) {
  const { source } = consumer;
  if (source.kind !== 'table-stream') throw new Error(`${consumer.id} does not read the table stream`);
  const invocations: unknown[] = [];
  const functionArn = `arn:aws:lambda:us-east-1:123456789012:function:${consumer.id}`;
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://lambda');
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(body));
    };
    if (request.method === 'GET' && url.pathname.replace(/\/$/, '') === '/2015-03-31/event-source-mappings') {
      const mapping = {
        UUID: 'mapping-1',
        EventSourceArn: url.searchParams.get('EventSourceArn'),
        FunctionArn: functionArn,
        BatchSize: source.batchSize,
        ParallelizationFactor: source.parallelizationFactor ?? 1,
        FilterCriteria: {
          Filters: source.filters.map((filter) => ({ Pattern: JSON.stringify(streamFilterPattern(filter)) })),
        },
        State: 'Enabled',
      };
      const named = decodeURIComponent(url.searchParams.get('FunctionName') ?? '');
      return answer(200, { EventSourceMappings: named.endsWith(consumer.id) ? [mapping] : [] });
    }
    const invoked = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/.exec(url.pathname);
    if (request.method === 'POST' && invoked && decodeURIComponent(invoked[1] ?? '').endsWith(consumer.id)) {
      const event = JSON.parse((await readBody(request, 6 * 1024 * 1024)).toString('utf8'));
      invocations.push(event);
      try {
        return answer(200, (await invoker.invoke(consumerFunction(consumer), event)) ?? null);
      } catch (error) {
        const { name, message } = error as Error;
        return answer(200, { errorType: name, errorMessage: message }, { 'x-amz-function-error': 'Unhandled' });
      }
    }
    answer(404, { Type: 'User', message: `no such Lambda API call here: ${request.method} ${url.pathname}` });
  });
  const url = await listenOnLoopback(server);
  return { url, functionArn, invocations, close: () => closeServer(server) };
}
