import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler as create } from '#functions/webhooks/handlers/create-configuration';
import { setDependencies } from '#shared/dependencies';
import { approvingUrlPolicy } from '#test/support/fakes';
import { ddb, useHandlerHarness } from '#test/support/handler-harness';
import { httpEvent, invoke } from '#test/support/http-events';

/**
 * POST /webhooks/configurations subscribes only to kinds the token reads, and keeps the
 * scopes it was saved with, so delivery can hold it to them (docs/api.md#webhook-configurations).
 */
useHandlerHarness();
beforeEach(() => setDependencies({ webhookUrlPolicy: approvingUrlPolicy }));

const createEvent = (event_types: string[], scope: string) =>
  httpEvent({
    method: 'POST',
    path: '/webhooks/configurations',
    routeKey: 'POST /webhooks/configurations',
    body: { url: 'https://hooks.example.com/orum', event_types, enabled: true },
    claims: { client_id: 'partner-a', scope },
  });

/** The configuration item the create transaction puts. */
const putConfiguration = () =>
  ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems?.[0]?.Put?.Item);

describe('POST /webhooks/configurations: scopes', () => {
  it('refuses subscribe_all to a token with only write:webhook-configurations: 403 insufficient_scope, nothing written', async () => {
    const res = await invoke(create, createEvent(['subscribe_all'], 'write:webhook-configurations'));

    expect(res.statusCode).toBe(403);
    expect(res.body).toMatchObject({
      error_code: 'insufficient_scope',
      details: {
        event_types: ['subscribe_all'],
        required_scopes: ['read:persons', 'read:verify-accounts', 'invoke:webhook'],
      },
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('refuses a kind the token does not read, naming that kind and its scope', async () => {
    const res = await invoke(
      create,
      createEvent(['person_all', 'verify_account_updated'], 'write:webhook-configurations read:persons'),
    );

    expect(res.statusCode).toBe(403);
    expect(res.body.details).toEqual({
      event_types: ['verify_account_updated'],
      required_scopes: ['read:verify-accounts'],
    });
  });

  it('stores the event-reading scopes of the token that saved it, and shows them to no one', async () => {
    const res = await invoke(
      create,
      createEvent(['person_all'], 'write:webhook-configurations read:persons read:webhook-secret invoke:webhook'),
    );

    expect(res.statusCode).toBe(200);
    expect(putConfiguration()).toEqual([expect.objectContaining({ scopes: ['read:persons', 'invoke:webhook'] })]);
    expect(res.body.webhook_configuration).not.toHaveProperty('scopes');
  });
});
