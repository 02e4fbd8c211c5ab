import { join } from 'node:path';
import type { Stack } from 'aws-cdk-lib';
import { ApiFunction } from '#lib/constructs/api-function';
import type { BankBinding } from '#lib/constructs/bank-secrets';
import type { CipherKey } from '#lib/constructs/cipher-key';
import type { DataKey } from '#lib/constructs/data-key';
import type { DataTable } from '#lib/constructs/data-table';
import type { HttpApi } from '#lib/constructs/http-api';
import type { IdentityVendorBinding } from '#lib/constructs/provider-binding';
import type { WorkQueue } from '#lib/constructs/queue';
import type { RequestLimit } from '#lib/context/api-limits';
import {
  dataKeysOf,
  isProviderSigned,
  type RouteDefinition,
  routeKey,
  tableAccessOfRoute,
  takesIdempotencyKey,
} from '#lib/service/index';
import { ENV } from '#shared/config';
import type { DataKeyPurpose } from '#shared/data-key/index';
import type { QueueId } from '#shared/queue/message-queue';

// The functions of the deployed routes, built in the stack itself (VerifyServiceStack): a
// function's construct id is its route id, from which its resources' logical ids derive.

/** What every route's function is bound to. */
export interface RouteFunctionsProps {
  /** Repository root: handler paths are relative to it. */
  readonly projectRoot: string;
  readonly dataTable: DataTable;
  readonly cipherKey: CipherKey;
  /** Every data key of the service, by purpose, for routes whose row holds one. */
  readonly dataKeys: Readonly<Record<DataKeyPurpose, DataKey>>;
  readonly httpApi: HttpApi;
  /** Each tenant's request rate and burst when its settings name none. */
  readonly tenantLimit: RequestLimit;
  /** The prefix of the token issuer's scopes, stripped by handlers that read them. */
  readonly scopePrefix?: string;
  readonly bank: BankBinding;
  readonly identityVendor: IdentityVendorBinding;
}

/** One function per route, bound to the table, keys and bank its row names, each on its route of the HTTP API. */
export function routeFunctions(
  stack: Stack,
  routes: readonly RouteDefinition[],
  props: RouteFunctionsProps,
): Map<string, ApiFunction> {
  const functions = new Map<string, ApiFunction>();
  for (const route of routes) {
    if (functions.has(route.id)) throw new Error(`route "${route.id}" is listed twice`);
    const fn = new ApiFunction(stack, route.id, {
      entry: join(props.projectRoot, route.handler),
      projectRoot: props.projectRoot,
      description: routeKey(route),
      bundling: route.bundling,
      dataKeys: dataKeysOf(route).map((purpose) => props.dataKeys[purpose]),
      takesIdempotencyKey: takesIdempotencyKey(route),
      bank: route.bank ? { binding: props.bank, access: route.bank } : undefined,
      identityVendor: route.identityVendor
        ? { binding: props.identityVendor, access: route.identityVendor }
        : undefined,
    })
      .bindTable(props.dataTable, tableAccessOfRoute(route), { actsForOneTenant: route.crossTenant === undefined })
      .bindCipherKey(props.cipherKey, route.cipher);
    // Every partner route takes a token from its tenant's bucket (the HTTP middleware
    // stack); the provider's notices have no tenant and no token.
    if (!isProviderSigned(route)) {
      fn.addEnvironment(ENV.tenantRatePerSecond, String(props.tenantLimit.ratePerSecond));
      fn.addEnvironment(ENV.tenantBurst, String(props.tenantLimit.burst));
      // Handlers that read the token's scopes (the event log) strip the issuer's prefix.
      if (props.scopePrefix) fn.addEnvironment(ENV.scopePrefix, props.scopePrefix);
    }
    props.httpApi.addRoute(route, fn);
    functions.set(route.id, fn);
  }
  return functions;
}

/** Routes that send to a queue (redelivery) are bound once the queues exist. */
export function bindRouteQueues(
  routes: readonly RouteDefinition[],
  functions: ReadonlyMap<string, ApiFunction>,
  queues: ReadonlyMap<QueueId, WorkQueue>,
): void {
  for (const route of routes) {
    for (const queueId of route.sendsTo ?? []) {
      const workQueue = queues.get(queueId);
      if (!workQueue) throw new Error(`route "${route.id}" sends to unknown queue "${queueId}"`);
      functions.get(route.id)?.sendsTo(queueId, workQueue);
    }
  }
}
