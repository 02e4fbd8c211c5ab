import { ENTITY } from '#shared/db/entities';
import type { ServiceArea } from './types';

/** The Verify API: four routes and the asynchronous verification around them. */
export const VERIFY_ACCOUNTS: ServiceArea = {
  routes: [
    {
      id: 'CreateVerifyAccount',
      method: 'POST',
      path: '/verify/accounts',
      scopes: ['write:verify-accounts'],
      handler: 'functions/verify-accounts/handlers/create.ts',
      // Query of the verification slots, a conditional put claiming one, then the account's
      // put; a failed account write deletes the claim again (docs/data-model.md, pattern 4).
      // A retry whose id an earlier attempt of the same request took reads that account
      // (#shared/created-id).
      table: { actions: ['Query', 'PutItem', 'DeleteItem', 'GetItem'], leadingKeys: ['tenantData'] },
      // The owner's SSN or tax id, for the ownership check.
      cipher: { encrypt: ['ownership'] },
      // The account-number index entry and the verification slots' key.
      digestKey: true,
      // The account number is stored sealed, and the answer kept for replay seals it too.
      fieldKey: true,
    },
    {
      id: 'ListVerifyAccounts',
      method: 'GET',
      path: '/verify/accounts',
      scopes: ['read:verify-accounts'],
      handler: 'functions/verify-accounts/handlers/list.ts',
      listPositions: true,
      // The slim indexes, then the page's items by key (or one GetItem for an `id` filter).
      table: { actions: ['BatchGetItem', 'GetItem'], indexes: ['byTenant', 'byLookup'], leadingKeys: ['tenantData'] },
      // The `account_number` filter reads the account-number index by its digest.
      digestKey: true,
      // Every account answered is opened.
      fieldKey: true,
    },
    {
      id: 'GetVerifyAccount',
      method: 'GET',
      path: '/verify/accounts/{id}',
      scopes: ['read:verify-accounts'],
      handler: 'functions/verify-accounts/handlers/get.ts',
      table: { actions: ['GetItem'], leadingKeys: ['tenantData'] },
      fieldKey: true,
    },
    {
      id: 'VerifyAccountControl',
      method: 'POST',
      path: '/verify/accounts/{id}/control',
      scopes: ['write:verify-accounts'],
      handler: 'functions/verify-accounts/handlers/control.ts',
      table: { actions: ['GetItem', 'UpdateItem'], leadingKeys: ['tenantData'] },
      // The submitted code is compared by its keyed digest.
      digestKey: true,
      // The account is read (and answered); the answer kept for replay is sealed.
      fieldKey: true,
    },
    {
      id: 'VerifyAccountDebits',
      method: 'POST',
      path: '/verify/accounts/{id}/debits',
      scopes: ['write:verify-accounts'],
      handler: 'functions/verify-accounts/handlers/debits.ts',
      // The account, the verification slots, a put claiming one, then the versioned update
      // resetting the debit status; a conflict deletes the claim again.
      table: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'], leadingKeys: ['tenantData'] },
      // The verification slots' key.
      digestKey: true,
      // The account is read (and answered); the answer kept for replay is sealed.
      fieldKey: true,
    },
  ],
  noticeRoutes: [
    {
      // The provider's webhook (docs/api.md#real-rails): returns of the prenotifications sent.
      id: 'BankNotice',
      method: 'POST',
      path: '/bank/notices',
      // No JWT: the provider signs every notice and the handler refuses any it did not sign.
      auth: 'provider-signature',
      scopes: [],
      handler: 'functions/verify-accounts/handlers/bank-notice.ts',
      // As BankReturnWindows, less the index: the return marked on its check, the account
      // with its checks (a Query of its partition) settled, its checks deleted.
      table: { actions: ['GetItem', 'UpdateItem', 'Query', 'DeleteItem'], leadingKeys: ['tenantData'] },
      // No cipher: settling matches ownership, but a bank on rails checks none (Increase's
      // `checksOwnership` is false), so the SSN or tax id is never decrypted here; the
      // statement code sent to a valid control account is stored as its digest.
      digestKey: true,
      fieldKey: true,
      // Checks the notice's signature with the webhook secret, re-fetches what it names and,
      // settling, may send the credit (the API key).
      bank: { secrets: ['apiKey', 'webhookSecret'] },
    },
  ],
  consumers: [
    {
      id: 'VerificationWorker',
      handler: 'functions/verify-accounts/handlers/verification-worker.ts',
      source: { kind: 'queue', queue: 'verification', batchSize: 10 },
      // The account; its result; on real rails the pending checks kept beside it.
      table: { actions: ['GetItem', 'UpdateItem', 'PutItem'], leadingKeys: ['tenantData'] },
      cipher: { decrypt: ['ownership'] },
      // The statement code is stored as its keyed digest.
      digestKey: true,
      // The bank is asked about the plain account number.
      fieldKey: true,
      // Checks the account, and sends the statement credit: the API key alone, no notices read.
      bank: { secrets: ['apiKey'] },
      timeoutSeconds: 30,
    },
    {
      // Its own function so that no other carries the SES client (61 KB of every cold start).
      id: 'StatementCodeEmailWorker',
      handler: 'functions/verify-accounts/handlers/statement-code-email-worker.ts',
      source: { kind: 'queue', queue: 'statementCodeEmails', batchSize: 10 },
      table: { actions: ['GetItem', 'UpdateItem'], leadingKeys: ['tenantData'] },
      // The email names the account number's last four digits.
      fieldKey: true,
      sendsEmail: true,
      timeoutSeconds: 30,
    },
    {
      id: 'StatementCodeExpiry',
      handler: 'functions/verify-accounts/handlers/statement-code-expiry.ts',
      source: { kind: 'schedule', cron: { minute: '15', hour: '*' }, localEveryMs: 60_000 },
      table: { actions: ['GetItem', 'UpdateItem'], indexes: ['byDueTime'], leadingKeys: ['tenantData'] },
      // Reads each due account through the repository, which opens its account number.
      fieldKey: true,
      crossTenant: 'reads the codes due of every tenant (byDueTime), each account handled acting for its own',
      timeoutSeconds: 300,
    },
    {
      // Real rails only (docs/api.md#real-rails): nothing is due with the sandbox bank.
      id: 'BankReturnWindows',
      handler: 'functions/verify-accounts/handlers/bank-return-windows.ts',
      // Often locally: on the Increase fake a window ends at once (docs/local.md), so a quiet
      // account is valid within seconds; with the sandbox bank nothing is ever due.
      source: { kind: 'schedule', cron: { minute: '45', hour: '*' }, localEveryMs: 15_000 },
      // The checks whose window ended (byDueTime), each account with its checks (a Query of
      // its partition), the account settled, its checks deleted.
      table: {
        actions: ['GetItem', 'UpdateItem', 'Query', 'DeleteItem'],
        indexes: ['byDueTime'],
        leadingKeys: ['tenantData'],
      },
      // As the verification worker: ownership matched, the statement code sent and stored as its digest.
      cipher: { decrypt: ['ownership'] },
      digestKey: true,
      fieldKey: true,
      // Confirms each silence with the provider, and settling a control account sends its
      // statement credit: the API key alone, no notices read.
      bank: { secrets: ['apiKey'] },
      crossTenant: 'reads the ended windows of every tenant (byDueTime), each account settled acting for its own',
      timeoutSeconds: 300,
    },
  ],
  queues: {
    verification: { name: 'Verification', visibilityTimeoutSeconds: 180, maxReceiveCount: 5 },
    statementCodeEmails: { name: 'StatementCodeEmails', visibilityTimeoutSeconds: 180, maxReceiveCount: 5 },
  },
  // A new account is queued for verification, a statement code just sent for the holder's
  // email; a status change becomes a stored event.
  streamRules: {
    filters: [{ eventName: ['INSERT', 'MODIFY'], entity: [ENTITY.verifyAccount] }],
    table: { actions: ['PutItem'], leadingKeys: ['tenantData'] },
    sendsTo: ['verification', 'statementCodeEmails'],
    // An account's image is read with its number opened; the event recorded seals it again.
    fieldKey: true,
  },
};
