import { Logger } from '@aws-lambda-powertools/logger';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import * as z from 'zod/mini';

// The kept floors (issue 32): the floor's one GetCommand, plus what every function of the
// service carries by decision rather than by its own code, each used the plainest way a
// handler would use it: middy around the handler (mandated), Powertools' Logger and
// (kept: one log context), a zod/mini schema for the path id (mandated), and STS's
// AssumeRole of the function's tenant role on the first request (tenant isolation,
// docs/threat-model.md), its client imported lazily as the service's is. The variants
// (./kept-*.ts, one per set of extras: route.ts) add Powertools' Metrics (a function that
// counts: one count a request), the KMS client (a function holding a data key) or the SQS
// client (a function that sends), made at module scope. A function's figures over its kept
// floor's are what its own code costs; the kept floor's over the floor, what the
// decisions cost. Not the service's code: nothing here is shared with functions/.

const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const tableName = process.env.TABLE_NAME;
const logger = new Logger({ serviceName: 'bench-kept-floor' });
const Params = z.object({ id: z.string().check(z.minLength(1), z.maxLength(200)) });

let assumed: Promise<unknown> | undefined;

/** The tenant role's session, once per container: the round trip the service's first request pays. */
function assumeTenantRole(tenant: string): Promise<unknown> {
  const roleArn = process.env.TENANT_ROLE_ARN;
  if (!roleArn) return Promise.resolve(undefined);
  assumed ??= import('@aws-sdk/client-sts').then(({ AssumeRoleCommand, STSClient }) =>
    new STSClient({}).send(
      new AssumeRoleCommand({
        RoleArn: roleArn,
        RoleSessionName: `tenant-${tenant}`,
        DurationSeconds: 3600,
        Tags: [{ Key: 'tenant', Value: tenant }],
      }),
    ),
  );
  return assumed;
}

interface FloorEvent {
  readonly pathParameters?: { readonly id?: string };
  readonly requestContext?: { readonly authorizer?: { readonly jwt?: { readonly claims?: Record<string, string> } } };
}

/** The kept floor's handler; `counted` runs once a request has been served (the metrics variants count it). */
export const keptFloorHandler = (counted: () => void = () => {}) =>
  middy(async (event: FloorEvent, context: Context) => {
    logger.addContext(context);
    const params = Params.safeParse(event.pathParameters ?? {});
    if (!params.success) return { statusCode: 400, body: JSON.stringify({ error_code: 'invalid_request' }) };
    await assumeTenantRole(event.requestContext?.authorizer?.jwt?.claims?.client_id ?? 'bench-floor');
    // Read with the function's own credentials, as the floor does: the floor's items are no tenant's.
    const { Item } = await client.send(
      new GetCommand({ TableName: tableName, Key: { pk: params.data.id, sk: params.data.id } }),
    );
    counted();
    return { statusCode: Item ? 200 : 404, body: JSON.stringify(Item ?? { error: 'not_found' }) };
  });
