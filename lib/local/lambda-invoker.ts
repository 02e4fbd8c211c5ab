import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from 'aws-lambda';
import { REPO_ROOT } from '#lib/repo-root';
import { API_FUNCTION_TIMEOUT_SECONDS, type ConsumerDefinition, type RouteDefinition } from '#lib/service/index';
import { untilAnswered } from '#shared/abandoned-work';
import { withOwnVariables } from '#shared/config';
import { LOCAL_ACCOUNT_ID, LOCAL_REGION } from './aws-account';
import { ownEnvironmentOf } from './iam/local-tenant-roles';

// Runs handler modules in-process the way the Lambda Node.js runtime would: the module is
// imported on the first invocation (a cold start, after the runtime has set the
// environment), `handler(event, context)` is awaited, and an invocation that outlives the
// function timeout fails as Lambda's "Task timed out" does. Lambda then stops the
// invocation; a promise cannot be stopped, so from then on its table calls and queue sends
// are refused (#shared/abandoned-work) and it changes nothing more. Every function shares
// the process's environment, over which each invocation sees its own function's variables.

/** One Lambda function as the invoker runs it: a route's or a consumer's (`routeFunction`, `consumerFunction`). */
export interface FunctionDefinition {
  /** Function name, as `context.functionName` (the route id). */
  readonly name: string;
  /** Module path relative to the repository root; it exports `handler`. */
  readonly handler: string;
  /** This function's own timeout; the invoker's default (the API functions' timeout) otherwise. */
  readonly timeoutMs?: number;
  /**
   * The variables Lambda would give this function and not the others (`TENANT_ROLE_ARN` of
   * its tenant role), seen by its code over the process's environment (`withOwnVariables`).
   */
  readonly environment?: Readonly<Record<string, string>>;
}

/** The same timeout the CDK stack gives the API functions. */
export const DEFAULT_FUNCTION_TIMEOUT_MS = API_FUNCTION_TIMEOUT_SECONDS * 1000;
const MEMORY_MB = '512';

/** A route as the invoker runs it: named after the route, with the API functions' timeout. */
export const routeFunction = (route: RouteDefinition): FunctionDefinition => ({
  name: route.id,
  handler: route.handler,
  environment: ownEnvironmentOf(route),
});

/** A consumer as the invoker runs it: its own name, module and timeout. */
export const consumerFunction = (consumer: ConsumerDefinition): FunctionDefinition => ({
  name: consumer.id,
  handler: consumer.handler,
  timeoutMs: consumer.timeoutSeconds * 1000,
  environment: ownEnvironmentOf(consumer),
});

type Handler = (event: unknown, context: Context) => unknown;

export class FunctionTimeoutError extends Error {}

export class LambdaInvoker {
  private readonly modules = new Map<string, Promise<Handler>>();

  constructor(
    private readonly timeoutMs = DEFAULT_FUNCTION_TIMEOUT_MS,
    private readonly region = LOCAL_REGION,
  ) {}

  /**
   * Runs one invocation with the function's own variables, its init included; a function
   * without any sees none of another's, even when invoked from within another's invocation
   * (a queue consumer woken by the sender's message).
   */
  invoke(fn: FunctionDefinition, event: unknown): Promise<unknown> {
    return withOwnVariables(fn.environment ?? {}, () => this.invokeHandler(fn, event));
  }

  private async invokeHandler(fn: FunctionDefinition, event: unknown): Promise<unknown> {
    const handler = await this.load(fn);
    const timeoutMs = fn.timeoutMs ?? this.timeoutMs;
    const deadline = Date.now() + timeoutMs;
    const context = lambdaContext(fn.name, this.region, deadline);
    const frozen = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        frozen.abort(`${fn.name}'s time ran out (Lambda would have stopped the invocation)`);
        reject(new FunctionTimeoutError(`${fn.name}: Task timed out after ${(timeoutMs / 1000).toFixed(2)} seconds`));
      }, timeoutMs);
    });
    try {
      const run = Promise.resolve().then(() => untilAnswered(frozen.signal, () => handler(event, context)));
      return await Promise.race([run, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private load(fn: FunctionDefinition): Promise<Handler> {
    let loading = this.modules.get(fn.handler);
    if (!loading) {
      loading = importHandler(fn.handler);
      this.modules.set(fn.handler, loading);
      // A failed import (file not written yet, syntax error) is retried on the next
      // request, as Lambda retries a failed init, so a running server picks up the fix.
      loading.catch(() => this.modules.delete(fn.handler));
    }
    return loading;
  }
}

async function importHandler(modulePath: string): Promise<Handler> {
  const module = (await import(pathToFileURL(resolve(REPO_ROOT, modulePath)).href)) as { handler?: unknown };
  if (typeof module.handler !== 'function') throw new Error(`${modulePath} does not export a function named handler`);
  return module.handler as Handler;
}

function lambdaContext(functionName: string, region: string, deadline: number): Context {
  const awsRequestId = randomUUID();
  const unsupported = (name: string) => () => {
    throw new Error(`context.${name}() is a deprecated Lambda API; return a value or throw instead`);
  };
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${region}:${LOCAL_ACCOUNT_ID}:function:${functionName}`,
    memoryLimitInMB: MEMORY_MB,
    awsRequestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: `${new Date().toISOString().slice(0, 10).replaceAll('-', '/')}/[$LATEST]${awsRequestId.replaceAll('-', '')}`,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: unsupported('done'),
    fail: unsupported('fail'),
    succeed: unsupported('succeed'),
  };
}
