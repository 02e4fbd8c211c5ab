import type { ServiceArea } from './types';

/**
 * Where a tenant's events go: webhook configurations and the signing secret. (The test
 * event and delivery join this area.)
 */
export const WEBHOOKS: ServiceArea = {
  routes: [
    {
      id: 'CreateWebhookConfiguration',
      method: 'POST',
      path: '/webhooks/configurations',
      scopes: ['write:webhook-configurations'],
      handler: 'functions/webhooks/handlers/create-configuration.ts',
      // One transaction: the configuration and the tenant's configuration count (the cap of
      // 10). A retry whose id an earlier attempt of the same request took reads that
      // configuration (#shared/created-id).
      table: { actions: ['PutItem', 'UpdateItem', 'GetItem'], leadingKeys: ['tenantData'] },
    },
    {
      id: 'ListWebhookConfigurations',
      method: 'GET',
      path: '/webhooks/configurations',
      scopes: ['read:webhook-configurations'],
      handler: 'functions/webhooks/handlers/list-configurations.ts',
      // The tenant's configuration partition (table keys).
      table: { actions: ['Query'], leadingKeys: ['tenantData'] },
    },
    {
      id: 'ReplaceWebhookConfiguration',
      method: 'PUT',
      path: '/webhooks/configurations/{id}',
      scopes: ['write:webhook-configurations'],
      handler: 'functions/webhooks/handlers/replace-configuration.ts',
      // One conditional update: it exists, or the answer is 404.
      table: { actions: ['UpdateItem'], leadingKeys: ['tenantData'] },
    },
    {
      id: 'DeleteWebhookConfiguration',
      method: 'DELETE',
      path: '/webhooks/configurations/{id}',
      scopes: ['write:webhook-configurations'],
      handler: 'functions/webhooks/handlers/delete-configuration.ts',
      // One transaction: the configuration and the tenant's configuration count.
      table: { actions: ['DeleteItem', 'UpdateItem'], leadingKeys: ['tenantData'] },
    },
    {
      id: 'CreateWebhookSecret',
      method: 'POST',
      path: '/webhooks/secret',
      scopes: ['write:webhook-secret'],
      handler: 'functions/webhooks/handlers/create-secret.ts',
      // Reads the secret item and writes it back with the new secret (the old one moved, still encrypted).
      table: { actions: ['GetItem', 'PutItem'], leadingKeys: ['tenantData'] },
      cipher: { encrypt: ['webhook_signing_secret'] },
    },
    {
      id: 'GetWebhookSecret',
      method: 'GET',
      path: '/webhooks/secret',
      scopes: ['read:webhook-secret'],
      handler: 'functions/webhooks/handlers/get-secret.ts',
      table: { actions: ['GetItem'], leadingKeys: ['tenantData'] },
      cipher: { decrypt: ['webhook_signing_secret'] },
    },
  ],
  consumers: [],
  queues: {},
};
