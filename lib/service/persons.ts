import { ENTITY } from '#shared/db/entities';
import type { ServiceArea, TableAccess } from './types';

/**
 * A person change: read it, one versioned write; a new reference id also puts its
 * uniqueness item and deletes the old one (keyed by the references' digests: `digestKey`).
 */
const CHANGE_PERSON: TableAccess = {
  actions: ['GetItem', 'UpdateItem', 'PutItem', 'DeleteItem'],
  leadingKeys: ['tenantData'],
};

/** The payment-delivery persons API and their identification (screening: screening.ts). */
export const PERSONS: ServiceArea = {
  routes: [
    {
      id: 'CreatePerson',
      method: 'POST',
      path: '/persons',
      scopes: ['write:persons'],
      handler: 'functions/persons/handlers/create.ts',
      // One transaction: the person and its customer-reference uniqueness item. A retry whose
      // id an earlier attempt of the same request took reads that person (#shared/created-id).
      table: { actions: ['PutItem', 'GetItem'], leadingKeys: ['tenantData'] },
      cipher: { encrypt: ['ssn'] },
      // The customer reference's uniqueness item is keyed by its digest.
      digestKey: true,
    },
    {
      id: 'ListPersons',
      method: 'GET',
      path: '/persons',
      scopes: ['read:persons'],
      handler: 'functions/persons/handlers/list.ts',
      listPositions: true,
      // The slim list index, then the page by key; `id` and reference filters read by key.
      table: { actions: ['BatchGetItem', 'GetItem'], indexes: ['byTenant'], leadingKeys: ['tenantData'] },
      // The `customer_reference_id` filter reads the reference item by its digest.
      digestKey: true,
    },
    {
      id: 'GetPerson',
      method: 'GET',
      path: '/persons/{id}',
      scopes: ['read:persons'],
      handler: 'functions/persons/handlers/get.ts',
      table: { actions: ['GetItem'], leadingKeys: ['tenantData'] },
    },
    {
      id: 'UpdatePerson',
      method: 'PATCH',
      path: '/persons/{id}',
      scopes: ['write:persons'],
      handler: 'functions/persons/handlers/patch.ts',
      table: CHANGE_PERSON,
      cipher: { encrypt: ['ssn'] },
      digestKey: true,
    },
    {
      id: 'ReplacePerson',
      method: 'PUT',
      path: '/persons/{id}',
      scopes: ['write:persons'],
      handler: 'functions/persons/handlers/replace.ts',
      table: CHANGE_PERSON,
      cipher: { encrypt: ['ssn'] },
      digestKey: true,
    },
    {
      id: 'UpsertPerson',
      method: 'PUT',
      path: '/persons',
      scopes: ['write:persons'],
      handler: 'functions/persons/handlers/upsert.ts',
      table: CHANGE_PERSON,
      cipher: { encrypt: ['ssn'] },
      digestKey: true,
    },
    {
      id: 'ClosePerson',
      method: 'DELETE',
      path: '/persons/{id}',
      scopes: ['write:persons'],
      handler: 'functions/persons/handlers/close.ts',
      table: { actions: ['GetItem', 'UpdateItem'], leadingKeys: ['tenantData'] },
    },
  ],
  noticeRoutes: [
    {
      // The identity vendor's webhook (docs/deploy.md#identity-vendor-plaid): a check it finished.
      id: 'IdentityNotice',
      method: 'POST',
      path: '/identity/notices',
      // No JWT: the vendor signs every notice and the handler refuses any it did not sign.
      auth: 'provider-signature',
      scopes: [],
      handler: 'functions/persons/handlers/identity-notice.ts',
      // No table, no cipher: it re-reads the check by id from the vendor and queues the
      // person's identification, whose worker reads the answer; the person's data stays there.
      table: { actions: [] },
      sendsTo: ['identification'],
      identityVendor: { secrets: ['apiSecret'] },
    },
  ],
  consumers: [
    {
      id: 'IdentificationWorker',
      handler: 'functions/persons/handlers/identification-worker.ts',
      source: { kind: 'queue', queue: 'identification', batchSize: 10 },
      // The person and the tenant's settings (its KYC mode); the lists' version, and when it
      // moved the lists' listings (their byTenant partitions, then the items); with a hit, the
      // person's recorded hits (a Query of its partition) and each hit's put; a review case
      // and the outcome, written to the tenant's records only.
      table: [
        { actions: ['GetItem'], leadingKeys: ['tenantData', 'tenantSettings'] },
        { actions: ['GetItem', 'BatchGetItem'], indexes: ['byTenant'], leadingKeys: ['screeningEntry'] },
        { actions: ['PutItem', 'UpdateItem', 'Query'], leadingKeys: ['tenantData'] },
      ],
      cipher: { decrypt: ['ssn'] },
      // Checks each Service-KYC person with the identity vendor (Plaid: its API secret).
      identityVendor: { secrets: ['apiSecret'] },
      timeoutSeconds: 30,
    },
  ],
  queues: {
    identification: { name: 'Identification', visibilityTimeoutSeconds: 180, maxReceiveCount: 5 },
  },
  // A person change is an event and maybe an identification.
  streamRules: {
    filters: [{ eventName: ['INSERT', 'MODIFY'], entity: [ENTITY.person] }],
    table: { actions: ['PutItem'], leadingKeys: ['tenantData'] },
    sendsTo: ['identification'],
  },
};
