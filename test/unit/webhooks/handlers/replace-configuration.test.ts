import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler as replace } from '#functions/webhooks/handlers/replace-configuration';
import { setDependencies } from '#shared/dependencies';
import { approvingUrlPolicy } from '#test/support/fakes';
import { ddb, TENANT, useHandlerHarness } from '#test/support/handler-harness';
import { httpEvent, invoke } from '#test/support/http-events';

/** PUT /webhooks/configurations/{id} follows create's rule: only kinds the replacing token reads, its scopes kept. */
useHandlerHarness();

const ID = '7d3e2b8a-4c1f-4e6a-9b0d-2f5a8c1e3d47';
const stored = {
  pk: `T#${TENANT}#WHC`,
  sk: ID,
  id: ID,
  tenant: TENANT,
  url: 'https://hooks.example.com/orum',
  event_types: ['person_all'],
  enabled: true,
  data_version: 'v2022-09-21',
  created_at: '2026-01-15T10:00:00.000Z',
  created_by: 'partner-a',
  updated_at: '2026-01-15T10:00:00.000Z',
  updated_by: 'partner-a',
  scopes: ['read:persons'],
  version: 1,
};

beforeEach(() => {
  setDependencies({ webhookUrlPolicy: approvingUrlPolicy });
  ddb.on(UpdateCommand).callsFake(({ ExpressionAttributeValues: v }) => ({
    Attributes: { ...stored, event_types: v[':event_types'], scopes: v[':scopes'], version: 2 },
  }));
});

const replaceEvent = (event_types: string[], scope: string) =>
  httpEvent({
    method: 'PUT',
    path: `/webhooks/configurations/${ID}`,
    routeKey: 'PUT /webhooks/configurations/{id}',
    pathParameters: { id: ID },
    body: { url: 'https://hooks.example.com/orum', event_types, enabled: true },
    claims: { client_id: 'partner-a', scope },
  });

describe('PUT /webhooks/configurations/{id}: scopes', () => {
  it('refuses a replace to a kind the token does not read: 403 insufficient_scope, nothing written', async () => {
    const res = await invoke(replace, replaceEvent(['subscribe_all'], 'write:webhook-configurations read:persons'));

    expect(res.statusCode).toBe(403);
    expect(res.body).toMatchObject({
      error_code: 'insufficient_scope',
      details: { event_types: ['subscribe_all'], required_scopes: ['read:verify-accounts', 'invoke:webhook'] },
    });
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it('stores the replacing token’s event-reading scopes with the new kinds', async () => {
    const res = await invoke(
      replace,
      replaceEvent(['verify_account_updated'], 'write:webhook-configurations read:verify-accounts'),
    );

    expect(res.statusCode).toBe(200);
    const [update] = ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input);
    expect(update?.ExpressionAttributeValues).toMatchObject({
      ':event_types': ['verify_account_updated'],
      ':scopes': ['read:verify-accounts'],
    });
    expect(res.body.webhook_configuration).not.toHaveProperty('scopes');
  });
});
