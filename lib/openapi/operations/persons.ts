import { personResponse, personsResponse } from '#functions/persons/openapi-responses';
import { completePersonLists } from '#functions/persons/request-schemas';
import type { ErrorCode } from '../error-codes';
import * as examples from '../examples/persons';
import { ARRAY, LIST } from './parameters';
import type { OperationSpec } from './types';

const personId = { id: 'The person’s id. Unknown, another tenant’s or malformed: `404 unknown_id_person` (as Orum).' };

const personChangeConflicts: readonly ErrorCode[] = [
  'person_closed',
  'person_restricted',
  'duplicate_customer_reference_id',
  'concurrent_update',
];

/** The OpenAPI words of lib/service/persons.ts's routes, by route id. */
export const PERSON_OPERATIONS: Readonly<Record<string, OperationSpec>> = {
  CreatePerson: {
    operationId: 'post-person',
    summary: 'Create a person',
    description:
      'A new person, `status: created`. Identification (and screening) starts asynchronously when the person carries an SSN, a date of birth or an address; names alone stay `created`. Sandbox outcomes: docs/sandbox.md#persons.',
    tag: 'Persons',
    requestBody: { name: 'PersonRequest', examples: examples.PERSON_REQUESTS },
    success: {
      status: 200,
      description: 'The person.',
      body: personResponse,
      examples: { created: examples.PERSON_RESPONSES.created },
    },
    errors: { 409: ['duplicate_customer_reference_id'] },
  },
  ListPersons: {
    operationId: 'get-persons',
    summary: 'List persons',
    description:
      'One page of the tenant’s persons, newest first, filtered. Name filters match case-insensitively and exactly.',
    tag: 'Persons',
    parameters: {
      ...LIST,
      id: 'One person id. Malformed, or given twice: `400 invalid_orum_id` (Orum’s code).',
      account_number:
        'Orum’s filter, taken with Orum’s pattern (4 to 17 digits, single hyphens between them; else `400 invalid_account_number`). A person here carries no bank account, so it matches no one: the page is empty.',
      customer_reference_id: 'Exact customer reference id.',
      status: `${ARRAY} A bad value: \`400 invalid_person_status\` (Orum’s code).`,
      first_name: 'First name, case-insensitive.',
      last_name: 'Last name, case-insensitive.',
    },
    success: {
      status: 200,
      description: 'One page.',
      body: personsResponse,
      examples: { page: examples.PERSON_RESPONSES.list },
    },
  },
  GetPerson: {
    operationId: 'get-person',
    summary: 'Get a person',
    description: 'The person as it is now.',
    tag: 'Persons',
    parameters: personId,
    success: {
      status: 200,
      description: 'The person.',
      body: personResponse,
      examples: { rejected: examples.PERSON_RESPONSES.rejected },
    },
    errors: { 404: ['unknown_id_person'] },
  },
  UpdatePerson: {
    operationId: 'patch-person',
    summary: 'Update a person',
    description:
      'Changes the fields sent; a field left out is unchanged; `null` removes an optional field (and is refused for a required one). As in Orum, an address needs only `type`: the fields sent are merged into the stored address (without one, they must make a whole address: `400 missing_address1`, …), and a contact without `value` keeps the stored contact of its type (without one: `400 missing_contacts_value`); the `contacts` list and `metadata` sent replace the current ones whole. `customer_reference_id`, which Orum’s PATCH lacks, is taken. A change of identity data (names, date of birth, SSN, address) identifies the person again; a restricted person’s identity data cannot change, a closed person nothing.',
    tag: 'Persons',
    parameters: personId,
    requestBody: { name: 'PatchPersonRequest', examples: examples.PERSON_PATCHES },
    success: { status: 200, description: 'The person.', body: personResponse },
    bodyCompletion: completePersonLists,
    errors: { 404: ['unknown_id_person'], 409: personChangeConflicts },
  },
  ReplacePerson: {
    operationId: 'put-person',
    summary: 'Replace a person',
    description:
      'The person becomes exactly the body: what it leaves out is removed, the SSN included. Identity changes identify the person again.',
    tag: 'Persons',
    parameters: personId,
    requestBody: { name: 'PersonRequest' },
    success: { status: 200, description: 'The person.', body: personResponse },
    errors: { 404: ['unknown_id_person'], 409: personChangeConflicts },
  },
  UpsertPerson: {
    operationId: 'put-person-using-reference-id',
    summary: 'Create or replace a person by customer reference id',
    description:
      'Creates the person of the body’s `customer_reference_id`, or replaces it as `PUT /persons/{id}` does.',
    tag: 'Persons',
    requestBody: { name: 'PersonRequest' },
    success: { status: 200, description: 'The person.', body: personResponse },
    errors: { 409: personChangeConflicts },
  },
  ClosePerson: {
    operationId: 'delete-person',
    summary: 'Close a person',
    description: 'Closes the person for good (`person_closed` event). Closing a closed person answers it unchanged.',
    tag: 'Persons',
    parameters: personId,
    success: {
      status: 200,
      description: 'The person, `status: closed`.',
      body: personResponse,
      examples: { closed: examples.PERSON_RESPONSES.closed },
    },
    errors: { 404: ['unknown_id_person'], 409: ['concurrent_update'] },
  },
};
