import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { port } from '#shared/dependencies';
import { TenantScopedDocumentClient } from './tenant-access/document-client';

/**
 * The table's document client, the one every repository port is built on: under the
 * function's own role, and under a tenant's credentials for a command about that tenant's
 * records (`TenantScopedDocumentClient`). Its entry in `Dependencies` is in
 * #shared/dependencies, so tests can replace it.
 */
export const documentClient = /* @__PURE__ */ port(
  'documentClient',
  () =>
    new TenantScopedDocumentClient(new DynamoDBClient({}), {
      translateConfig: { marshallOptions: { removeUndefinedValues: true, convertEmptyValues: false } },
    }),
);
