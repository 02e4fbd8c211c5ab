import { type Person, personSecretContext } from '#domain/person';
import { transition } from '#domain/person-lifecycle';
import { cipher } from '#shared/cipher/index';
import { createUnder } from '#shared/created-id';
import type { KeepAnswer } from '#shared/db/idempotency/kept-answer';
import { type PersonChange, persons, type StoredPerson } from '#shared/db/persons/index';
import { now } from '#shared/dependencies';
import { ConflictError } from '#shared/errors';
import type { HandlerRequest } from '#shared/http/types';
import { changePerson } from './change-person';
import { addressesFrom, contactsFrom, identityChanged } from './person-data';
import type { CreatePersonBody, PatchPersonBody } from './request-schemas';

// Creating and changing persons (docs/api.md#persons), each change through
// `changePerson` (change-person.ts). Closing is in close-person.ts: it encrypts nothing,
// so the close route bundles no KMS client.

/**
 * POST /persons (and PUT /persons for a new reference id). With an `Idempotency-Key`
 * (`request`), the person's id comes from the key (#shared/created-id): a retry of a create
 * whose answer was lost answers the person that create made; and the request's answer is
 * written with the person (`keep`, HandlerRequest.answers).
 */
export function createPerson(
  tenant: string,
  fields: CreatePersonBody,
  request?: HandlerRequest['idempotency'],
  keep?: KeepAnswer<Person>,
): Promise<Person> {
  return createUnder(request, (id, fingerprint) => createPersonWithId(tenant, fields, { id, fingerprint, keep }));
}

async function createPersonWithId(
  tenant: string,
  fields: CreatePersonBody,
  { id, fingerprint, keep }: { id: string; fingerprint?: string; keep?: KeepAnswer<Person> },
): Promise<Person> {
  const created = now();
  const at = created.toISOString();
  const person: Person = {
    id,
    tenant,
    customer_reference_id: fields.customer_reference_id,
    first_name: fields.first_name,
    middle_name: fields.middle_name ?? undefined,
    last_name: fields.last_name,
    date_of_birth: fields.date_of_birth ?? undefined,
    has_ssn: typeof fields.social_security_number === 'string',
    status: 'created',
    addresses: fields.addresses ? addressesFrom(fields.addresses, undefined, at) : undefined,
    contacts: fields.contacts ? contactsFrom(fields.contacts, undefined, at) : undefined,
    metadata: fields.metadata ?? undefined,
    created_at: at,
    updated_at: at,
    identification_attempts: 0,
    version: 1,
  };
  const ssn = fields.social_security_number;
  const secret = typeof ssn === 'string' ? await cipher().encrypt(ssn, personSecretContext(person)) : undefined;
  return persons().create(person, secret, created, fingerprint, keep);
}

/**
 * PATCH: the given fields change, `null` removes an optional one, the rest stays; an address
 * sent is merged. With `keep`, the request's answer is written with the change.
 */
export function patchPerson(
  tenant: string,
  id: string,
  fields: PatchPersonBody,
  keep?: KeepAnswer<Person>,
): Promise<Person> {
  return changePerson(tenant, id, (stored) => changeOf(stored, fields, { merge: true }), keep);
}

/** PUT /persons/{id}: the person becomes exactly the body; optional fields it leaves out are removed. */
export function replacePerson(tenant: string, id: string, fields: CreatePersonBody): Promise<Person> {
  return changePerson(tenant, id, (stored) => changeOf(stored, withAbsentAsNull(fields), { merge: false }));
}

/**
 * PUT /persons: creates the person of this customer reference id, or replaces it. Two
 * racing creations of one reference id end as one creation and one replacement.
 */
export async function upsertPerson(tenant: string, fields: CreatePersonBody): Promise<Person> {
  for (let attempt = 0; ; attempt++) {
    const existing = await persons().getByReference(tenant, fields.customer_reference_id);
    if (existing) return replacePerson(tenant, existing.id, fields);
    try {
      return await createPerson(tenant, fields);
    } catch (error) {
      const raced = error instanceof ConflictError && error.code === 'duplicate_customer_reference_id';
      if (!raced || attempt > 0) throw error;
    }
  }
}

/** The change a body makes to a stored person, by the lifecycle rules; `merge`: an address sent is partial. */
async function changeOf(
  { person }: StoredPerson,
  fields: PatchPersonBody,
  { merge }: { merge: boolean },
): Promise<PersonChange | undefined> {
  const at = now().toISOString();
  const set: Partial<Person> = {};
  const remove: (keyof Person)[] = [];
  const assign = <K extends keyof Person>(field: K, value: Person[K] | null | undefined) => {
    if (value === undefined) return;
    if (value === null) {
      if (person[field] !== undefined) remove.push(field);
    } else set[field] = value;
  };
  assign('customer_reference_id', fields.customer_reference_id);
  assign('first_name', fields.first_name);
  assign('middle_name', fields.middle_name);
  assign('last_name', fields.last_name);
  assign('date_of_birth', fields.date_of_birth);
  assign('metadata', fields.metadata);
  if (fields.addresses !== undefined)
    assign('addresses', fields.addresses && addressesFrom(fields.addresses, person.addresses, at, { merge }));
  if (fields.contacts !== undefined)
    assign('contacts', fields.contacts && contactsFrom(fields.contacts, person.contacts, at));
  // An SSN given is a new SSN: ciphertexts cannot be compared, so it re-identifies.
  const ssn = fields.social_security_number;
  const ssnChanged = typeof ssn === 'string' || (ssn === null && person.has_ssn);

  const cleared = Object.fromEntries(remove.map((field) => [field, undefined])) as Partial<Person>;
  const identity = identityChanged(person, { ...set, ...cleared }, ssnChanged);
  const next = transition(person.status, identity ? 'identity_updated' : 'updated');
  if (typeof next !== 'string') throw refusal(next.refused);
  if (!ssnChanged && Object.keys(set).length === 0 && remove.length === 0) return undefined;

  const change: PersonChange = { set, remove, identityChanged: identity };
  if (identity) {
    Object.assign(set, { status: next, identification_attempts: 0 });
    if (person.status_reasons) remove.push('status_reasons');
  }
  if (typeof ssn === 'string') change.ssnSecret = await cipher().encrypt(ssn, personSecretContext(person));
  else if (ssnChanged) change.ssnSecret = null;
  return change;
}

/** A replacement names every field: what it leaves out is removed. */
function withAbsentAsNull(fields: CreatePersonBody): PatchPersonBody {
  return {
    middle_name: null,
    date_of_birth: null,
    social_security_number: null,
    addresses: null,
    contacts: null,
    metadata: null,
    ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)),
  };
}

function refusal(code: 'person_closed' | 'person_restricted'): ConflictError {
  return code === 'person_closed'
    ? new ConflictError('person_closed', 'the person is closed; a closed person cannot change')
    : new ConflictError(
        'person_restricted',
        "the person is restricted; its identity data cannot change (contact the service's compliance team)",
      );
}
