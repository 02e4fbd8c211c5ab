import { randomUUID } from 'node:crypto';
import { BatchWriteItemCommand, type DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { type Person, personSecretContext } from '#domain/person';
import type { VerifyAccount } from '#domain/verify-account';
import { identifyPerson } from '#functions/persons/identify-person';
import { SANDBOX_LISTS_DIR } from '#functions/screening/load-lists';
import { refreshLists } from '#functions/screening/refresh-lists';
import { completeVerification } from '#functions/verify-accounts/complete-verification';
import { ROUTES, type RouteDefinition } from '#lib/service/index';
import type { LocalCipher } from '#shared/cipher/local-cipher';
import { keyDigest } from '#shared/db/digest';
import { personItem, toPerson } from '#shared/db/persons/item';
import { personKeys } from '#shared/db/persons/keys';
import { TABLE_SCHEMA } from '#shared/db/schema';
import { accountItem, toAccount } from '#shared/db/verify-accounts/item';
import { accountKeys } from '#shared/db/verify-accounts/keys';
import { createLogger } from '#shared/logger';
import type { BenchService } from './bench-service';

/**
 * A tenant's verify accounts or persons for the list benchmark, in bulk. A few templates
 * are made by the service itself (its create handler, then the pipeline's own use case
 * settling them: the sandbox bank's answer, identification), one per status; every item
 * loaded is a template with a new id, tenant, creation time and account number or
 * customer reference, mapped to its item by the repository's own mapping (`accountItem`,
 * `personItem`: keys, list and lookup index attributes), SSNs encrypted for their own
 * person. Statuses cycle, so a status filter matches one item in three.
 *
 * The index keys of a settled account may be written by the service's updates rather than
 * by `accountItem` (keys by status, list shards). Each template is checked: where
 * `accountItem` gives back the template's own stored index keys, copies take theirs;
 * where it does not, copies take the template's stored keys with the template's tenant,
 * id, creation time and account number digest replaced by the copy's (`indexKeyCopies`
 * lists them, and the load logs them). A key part derived otherwise from the id (a shard
 * number) then keeps the template's value: templates are made per shard count, and the
 * load reports how many index partitions the copies use.
 *
 * Left out, as no list reads them: the verification slot each creation takes and the
 * customer-reference uniqueness item of each person (their own partitions, no index).
 */

/** The status filters that match one template in three. */
export const VALID_ACCOUNTS = 'verification_status=valid';
export const VERIFIED_PERSONS = 'status=verified';

const route = (id: string): RouteDefinition => ROUTES.find((candidate) => candidate.id === id) as RouteDefinition;
const TEMPLATE_TENANT = 'bench-list-templates';
/** Marshalled as the service's document client marshalls. */
const MARSHALL = { removeUndefinedValues: true, convertEmptyValues: false } as const;

export interface Templates {
  accounts: Record<string, unknown>[];
  persons: Record<string, unknown>[];
  /** The index key attributes copies take from the stored templates, as `accountItem` does not reproduce them. */
  indexKeyCopies: string[];
}

/** Every index's key attributes (TABLE_SCHEMA). */
const INDEX_KEYS = Object.values(TABLE_SCHEMA.indexes).flatMap((index) => [index.partitionKey, index.sortKey]);

/**
 * Valid (`…5678`), invalid (`…1111`) and closed (`…2222`) accounts; verified, rejected
 * (SSN `…0001`, deceased) and created (names only) persons; made in `tenant` (whose list
 * shards the copies' tenant should share).
 */
export async function makeTemplates(service: BenchService, tenant = TEMPLATE_TENANT): Promise<Templates> {
  const logger = createLogger({ bench: 'lists' });
  const created = async (routeId: string, body: unknown) => {
    const answer = await service.invoke(route(routeId), { body }, tenant);
    if (answer.statusCode !== 200) throw new Error(`${routeId} answered ${answer.statusCode}: ${answer.body}`);
    return JSON.parse(answer.body as string);
  };
  const accounts: Record<string, unknown>[] = [];
  for (const suffix of ['5678', '1111', '2222']) {
    const { account } = await created('CreateVerifyAccount', {
      type: 'status_ownership',
      account_number: `12345${suffix}`,
      routing_number: '021000021',
      account_holder_name: 'Jane Doe',
      person: { first_name: 'Jane', last_name: 'Doe', ssn: '123456789' },
    });
    await completeVerification(tenant, account.id, logger);
    accounts.push(await storedItem(service, accountKeys.account(tenant, account.id)));
  }
  const persons = [];
  // Identification screens, and screening refuses an empty sanctions list.
  await refreshLists({ dir: SANDBOX_LISTS_DIR });
  for (const identity of [{ ssn: '123-45-6789' }, { ssn: '123-45-0001' }, undefined]) {
    const { person } = await created('CreatePerson', {
      customer_reference_id: randomUUID(),
      first_name: 'Jane',
      last_name: 'Doe',
      ...(identity && {
        social_security_number: identity.ssn,
        date_of_birth: '1985-04-12',
        addresses: [
          { type: 'home', address1: '100 Main Street', city: 'Springfield', state: 'IL', country: 'US', zip5: '62701' },
        ],
        contacts: [{ type: 'email', value: 'jane.doe@example.com' }],
      }),
    });
    if (identity) await identifyPerson({ tenant: tenant, id: person.id, identity_rev: 1 }, logger);
    persons.push(await storedItem(service, personKeys.person(tenant, person.id)));
  }
  const indexKeyCopies = INDEX_KEYS.filter((name) =>
    accounts.some((stored) => accountItem(toAccount(stored))[name] !== stored[name]),
  );
  return { accounts, persons, indexKeyCopies };
}

async function storedItem(service: BenchService, key: { pk: string; sk: string }) {
  const out = await service.admin.send(
    new GetItemCommand({ TableName: service.tableName, Key: marshall(key), ConsistentRead: true }),
  );
  if (!out.Item) throw new Error(`template ${key.pk} was not stored`);
  return unmarshall(out.Item);
}

/** One second apart, the newest now: lists read newest first. */
const createdAt = (i: number, count: number) => new Date(Date.now() - (count - i) * 1000).toISOString();

/** Items `range.from` … `range.to - 1` of a tenant holding `count` (made a slice at a time, so 100k never sit in memory at once). */
export interface Slice {
  readonly from: number;
  readonly to: number;
  readonly count: number;
}

const indexesOf = ({ from, to }: Slice) => Array.from({ length: to - from }, (_, n) => from + n);

export function accountItems(templates: Templates, tenant: string, slice: Slice): Record<string, unknown>[] {
  const count = slice.count;
  return indexesOf(slice).map((i) => {
    const stored = templates.accounts[i % templates.accounts.length] as Record<string, unknown>;
    const template = toAccount(stored);
    const at = createdAt(i, count);
    const account: VerifyAccount = {
      ...template,
      id: randomUUID(),
      tenant,
      created_at: at,
      updated_at: at,
      estimated_verification_date: `${at.slice(0, 10)}T00:00:00.000Z`,
      // Same sandbox suffix (same status), a bank account of its own.
      account_number: `${String(i).padStart(7, '0')}${template.account_number.slice(-4)}`,
    };
    const item = accountItem(account);
    for (const name of templates.indexKeyCopies) {
      if (typeof stored[name] === 'string') item[name] = rekeyed(stored[name], template, account);
      else delete item[name];
    }
    return item;
  });
}

/** A template's stored key value with its tenant, id, creation time and account number digest replaced by the copy's. */
function rekeyed(value: string, template: VerifyAccount, copy: VerifyAccount): string {
  return [
    [template.id, copy.id],
    [template.created_at, copy.created_at],
    [keyDigest('account-number', template.account_number), keyDigest('account-number', copy.account_number)],
    [template.tenant, copy.tenant],
  ].reduce((key, [from, to]) => key.split(from as string).join(to as string), value);
}

const FIRST_NAMES = ['Jane', 'John', 'Maria', 'Wei', 'Aisha', 'Carlos', 'Olga', 'Kenji', 'Fatima', 'Liam'];
const LAST_NAMES = ['Doe', 'Smith', 'Garcia', 'Chen', 'Okafor', 'Novak', 'Tanaka', 'Haddad', 'Murphy', 'Silva'];

export function personItems(
  templates: Templates,
  tenant: string,
  slice: Slice,
  cipher: LocalCipher,
): Promise<Record<string, unknown>[]> {
  const count = slice.count;
  return Promise.all(
    indexesOf(slice).map(async (i) => {
      const stored = templates.persons[i % templates.persons.length] as Record<string, unknown>;
      const template = toPerson(stored);
      const at = createdAt(i, count);
      const restamp = <T extends { id: string }>(part: T) => ({
        ...part,
        id: randomUUID(),
        created_at: at,
        updated_at: at,
      });
      const person: Person = {
        ...template,
        id: randomUUID(),
        tenant,
        customer_reference_id: `customer-${i}`,
        first_name: FIRST_NAMES[i % FIRST_NAMES.length] as string,
        last_name: LAST_NAMES[Math.floor(i / FIRST_NAMES.length) % LAST_NAMES.length] as string,
        addresses: template.addresses?.map(restamp),
        contacts: template.contacts?.map(restamp),
        created_at: at,
        updated_at: at,
      };
      const ssnSecret = stored.ssn_secret
        ? await cipher.encrypt(`12345${String(i % 10_000).padStart(4, '0')}`, personSecretContext(person))
        : undefined;
      return { ...personItem(person), ssn_secret: ssnSecret, identity_rev: stored.identity_rev };
    }),
  );
}

/** BatchWriteItem takes 25 puts. */
const BATCH = 25;

/**
 * Writes `items` with BatchWriteItem, `concurrency` calls in flight (DynamoDB Local
 * gains nothing beyond a few), retrying unprocessed items.
 */
export async function batchWrite(
  db: DynamoDBClient,
  tableName: string,
  items: readonly Record<string, unknown>[],
  concurrency = 4,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const batch = items.slice(next, next + BATCH);
      next += BATCH;
      let request: Record<string, any> | undefined = {
        [tableName]: batch.map((item) => ({ PutRequest: { Item: marshall(item, MARSHALL) } })),
      };
      while (request && Object.keys(request).length > 0) {
        request = (await db.send(new BatchWriteItemCommand({ RequestItems: request }))).UnprocessedItems;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}
