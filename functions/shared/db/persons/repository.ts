import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Person, StatusReason } from '#domain/person';
import { ConflictError, InternalError } from '#shared/errors';
import { failedConditions, isConditionFailure } from '../conditions';
import { readEarlierAttempt } from '../created-item';
import { ENTITY } from '../entities';
import {
  type KeepAnswer,
  type KeptAnswer,
  type TransactUpdate,
  writeTransaction,
  writeWithAnswer,
} from '../idempotency/kept-answer';
import { REQUEST_FINGERPRINT } from '../items';
import { appliedChange, concurrentUpdate, updateVersioned, versionedUpdateInput } from '../versioned-update';
import {
  type HitsChange,
  hitsUpdateInput,
  type IdentityCheckRecord,
  type PersonChange,
  type StoredPerson,
  versionedChangeOf,
} from './change';
import { personItem, referenceItem, toPerson } from './item';
import { personKeys } from './keys';

const duplicateReference = () =>
  new ConflictError('duplicate_customer_reference_id', 'another person of this tenant has this customer_reference_id');

/**
 * Persons, their customer-reference uniqueness items and review cases (docs/data-model.md,
 * patterns 10–13). A reference id is unique per tenant exactly, even under concurrency:
 * the person and its reference item are written in one transaction.
 */
export class PersonRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /**
   * Stores a new person and its reference id's uniqueness item, one transaction;
   * `ssnSecret` is the SSN's ciphertext. A reference id another person has is
   * `duplicate_customer_reference_id`. When the person's id was made from an
   * `Idempotency-Key` (#shared/created-id) and the request's `fingerprint` is given, a person
   * an earlier attempt of the same request stored under that id (its answer lost on the way
   * back) is answered instead; another request under that id is `idempotency_key_reused`, one
   * made under it more than the key's 24 h ago `CreatedIdTaken` (../created-item.ts). With
   * `keep`, the request's answer is written with it (../idempotency/kept-answer.ts).
   * Answers the person stored.
   */
  async create(
    person: Person,
    ssnSecret: string | undefined,
    now: Date,
    fingerprint?: string,
    keep?: KeepAnswer<Person>,
  ): Promise<Person> {
    const Item = { ...personItem(person), ssn_secret: ssnSecret, identity_rev: 1, [REQUEST_FINGERPRINT]: fingerprint };
    try {
      await writeTransaction(
        this.db,
        [
          { Put: { TableName: this.tableName, Item, ConditionExpression: 'attribute_not_exists(pk)' } },
          { Put: this.referenceItem(person.tenant, person.customer_reference_id, person.id) },
        ],
        keep?.(person),
      );
      return person;
    } catch (error) {
      const failed = failedConditions(error);
      // The id first: the retry of a create that landed finds its own reference id taken too.
      if (failed.includes(0)) {
        const key = personKeys.person(person.tenant, person.id);
        return toPerson(await readEarlierAttempt(this.db, this.tableName, key, { fingerprint, now, what: 'person' }));
      }
      if (failed.includes(1)) throw duplicateReference();
      throw error;
    }
  }

  async get(tenant: string, id: string): Promise<Person | undefined> {
    return (await this.getStored(tenant, id))?.person;
  }

  /** The person with what only the pipeline reads: the SSN ciphertext and the identity revision. */
  async getStored(tenant: string, id: string): Promise<StoredPerson | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: personKeys.person(tenant, id), ConsistentRead: true }),
    );
    if (!out.Item || out.Item.entity !== ENTITY.person) return undefined;
    return {
      person: toPerson(out.Item),
      ssnSecret: out.Item.ssn_secret as string | undefined,
      identityRev: Number(out.Item.identity_rev ?? 1),
      hitsRev: Number(out.Item.hits_rev ?? 0),
      ...(out.Item.identity_check && { identityCheck: out.Item.identity_check as IdentityCheckRecord }),
    };
  }

  async getByReference(tenant: string, customerReferenceId: string): Promise<Person | undefined> {
    const out = await this.db.send(
      new GetCommand({
        TableName: this.tableName,
        Key: personKeys.reference(tenant, customerReferenceId),
        ConsistentRead: true,
      }),
    );
    return typeof out.Item?.person_id === 'string' ? this.get(tenant, out.Item.person_id) : undefined;
  }

  /**
   * One versioned write of a change. A new customer reference id takes its uniqueness item
   * and frees the old one in the same transaction; new names move the person in the
   * screening index. A conflict if the person changed since it was read. With `keep`, the
   * request's answer is written with it, of the person as the change leaves it.
   */
  async update(stored: StoredPerson, change: PersonChange, now: Date, keep?: KeepAnswer<Person>): Promise<Person> {
    const { person } = stored;
    const versioned = versionedChangeOf(stored, change);
    const key = personKeys.person(person.tenant, person.id);
    const update = versionedUpdateInput(this.tableName, key, person.version, versioned, now);
    // A transaction answers no item: the answer kept with one is of the person it leaves.
    const next = keep && toPerson(appliedChange(personItem(person), versioned, now));
    const kept = next && keep?.(next);
    const reference = change.set.customer_reference_id;
    if (reference !== undefined && reference !== person.customer_reference_id)
      return this.updateWithReference(person, update, reference, { next, kept });
    if (!kept || !next)
      return toPerson(await updateVersioned(this.db, this.tableName, key, person.version, versioned, now));
    try {
      await writeWithAnswer(this.db, [{ Update: update }], kept);
    } catch (error) {
      if (isConditionFailure(error)) throw concurrentUpdate();
      throw error;
    }
    return next;
  }

  /**
   * Keeps the identity vendor's check of a look that found it still pending: `identity_check`
   * alone, on condition that the person is as `stored` was read (a change meanwhile is a
   * conflict, decided again on a fresh read). The service's own bookkeeping, never returned:
   * `version` and `updated_at` stay, so the partner sees nothing change and no event follows.
   */
  async keepPendingCheck(stored: StoredPerson, check: IdentityCheckRecord): Promise<void> {
    const { person } = stored;
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: personKeys.person(person.tenant, person.id),
          UpdateExpression: 'SET identity_check = :check',
          ConditionExpression: 'version = :v',
          ExpressionAttributeValues: { ':check': check, ':v': person.version },
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw concurrentUpdate();
      throw error;
    }
  }

  /**
   * The person's Update in the transaction that writes its screening hits (`hitsUpdateInput`
   * in ./change.ts): its hits' revision one more, on condition that neither the person nor its
   * hits changed since `stored` was read; with a change, the change's versioned write too.
   */
  hitsUpdateInput(stored: StoredPerson, now: Date, change?: HitsChange) {
    return hitsUpdateInput(this.tableName, stored, now, change);
  }

  /**
   * Opens a review case for a rejection: a record for the service's reviewers, kept with
   * the person. One per identity revision and attempt, so a repeated run opens none twice.
   */
  async openReviewCase(stored: StoredPerson, attempt: number, reasons: StatusReason[], now: Date): Promise<void> {
    const { person } = stored;
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...personKeys.reviewCase(person.tenant, person.id, `${stored.identityRev}#${attempt}`),
          entity: ENTITY.reviewCase,
          version: 1,
          tenant: person.tenant,
          person_id: person.id,
          status: 'open',
          status_reasons: reasons,
          opened_at: now.toISOString(),
        },
      }),
    );
  }

  private async updateWithReference(
    person: Person,
    update: TransactUpdate,
    reference: string,
    answer: { next?: Person; kept?: KeptAnswer },
  ) {
    const oldReference = personKeys.reference(person.tenant, person.customer_reference_id);
    try {
      await writeTransaction(
        this.db,
        [
          { Update: update },
          { Put: this.referenceItem(person.tenant, reference, person.id) },
          { Delete: { TableName: this.tableName, Key: oldReference } },
        ],
        answer.kept,
      );
    } catch (error) {
      const failed = failedConditions(error);
      if (failed.includes(1)) throw duplicateReference();
      if (failed.includes(0)) throw concurrentUpdate();
      throw error;
    }
    if (answer.next) return answer.next;
    // A transaction answers no item; the change is read back (reference changes are rare).
    const updated = await this.get(person.tenant, person.id);
    if (!updated) throw new InternalError('person vanished during its update');
    return updated;
  }

  /** The reference item's Put: it fails when another person of the tenant holds the reference. */
  private referenceItem(tenant: string, customerReferenceId: string, personId: string) {
    const Item = referenceItem(tenant, customerReferenceId, personId);
    return { TableName: this.tableName, Item, ConditionExpression: 'attribute_not_exists(pk)' };
  }
}
