import { unmarshall } from '@aws-sdk/util-dynamodb';
import { type DocumentCommand, requestsOf, type TableRequest } from '#shared/db/command-requests';
import type { PolicyRequest } from './policy-evaluator';

// What one DynamoDB call on the wire (JSON protocol 1.0) asks of IAM: each action, on which
// resource, with which `dynamodb:LeadingKeys`. The keys are read by the very mapping the
// document client chooses credentials by and the tests check grants by
// (functions/shared/db/command-requests.ts), fed the wire body as a document command's
// input, so the three cannot disagree on what a command names.

type Json = Record<string, unknown>;

/** The members of a DynamoDB body that hold AttributeValue maps (`{"pk":{"S":"T#acme#…"}}`). */
const ATTRIBUTE_MAPS = new Set(['Key', 'Item', 'ExpressionAttributeValues']);

/** A wire body as the document client's input: its AttributeValue maps as plain values. */
function asDocumentInput(value: unknown, member?: string): unknown {
  if (Array.isArray(value)) return value.map((item) => asDocumentInput(item, member === 'Keys' ? 'Key' : undefined));
  if (value === null || typeof value !== 'object') return value;
  // Numbers stay strings (`wrapNumbers`): a key is compared as text, and no precision is lost.
  if (member !== undefined && ATTRIBUTE_MAPS.has(member))
    return unmarshall(value as Parameters<typeof unmarshall>[0], { wrapNumbers: true });
  return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, asDocumentInput(inner, name)]));
}

/** The operation and input as `requestsOf` reads a document command (its operation by name). */
const documentCommand = (operation: string, input: Json): DocumentCommand => ({
  constructor: { name: operation },
  input,
});

/** The partition a request names: an item's key, or the index partition a Query of an index names. */
const leadingKeysOf = (request: TableRequest): string[] => {
  const key = request.index === undefined ? request.pk : request.partition;
  return key === undefined ? [] : [String(key)];
};

/** The table a transaction's item names (`{ "Put": { "TableName": … } }`). */
const tableOfItem = (item: Json | undefined): string | undefined =>
  (Object.values(item ?? {})[0] as Json | undefined)?.TableName as string | undefined;

/**
 * The IAM requests of one DynamoDB call: GetItem, PutItem, UpdateItem, DeleteItem on the
 * item key's `pk`; a Query on the table's or the index's partition from its key condition,
 * an index's as `<table ARN>/index/<index>`; BatchGetItem as one request per table with
 * every key; a transaction as each item's action on its key (GetItem for TransactGetItems);
 * any other operation as its action with no key. `tableArn` names a table's ARN. Throws on
 * a body that is not such a call's.
 */
export function iamRequestsOf(operation: string, body: Json, tableArn: (table: string) => string): PolicyRequest[] {
  const input = asDocumentInput(body) as Json;
  const on = (table: string | undefined, request: TableRequest, index?: string): PolicyRequest => ({
    action: `dynamodb:${request.action}`,
    resource: table === undefined ? '*' : `${tableArn(table)}${index === undefined ? '' : `/index/${index}`}`,
    leadingKeys: leadingKeysOf(request),
  });
  switch (operation) {
    case 'BatchGetItem':
    case 'BatchWriteItem':
      // IAM asks once per table, with every key of the batch among its LeadingKeys.
      return Object.entries(input.RequestItems as Json).map(([table, items]) => ({
        action: `dynamodb:${operation}`,
        resource: tableArn(table),
        leadingKeys: requestsOf(documentCommand(operation, { RequestItems: { [table]: items } })).flatMap(
          leadingKeysOf,
        ),
      }));
    case 'TransactWriteItems':
    case 'TransactGetItems': {
      const items = input.TransactItems as Json[];
      return requestsOf(documentCommand(operation, input)).map((request, i) => on(tableOfItem(items[i]), request));
    }
    default:
      return requestsOf(documentCommand(operation, input)).map((request) =>
        on(input.TableName as string | undefined, request, input.IndexName as string | undefined),
      );
  }
}
