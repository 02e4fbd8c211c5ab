import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler as decideHit } from '#functions/screening-review/handlers/decide-hit';
import { hitIdOf } from '#shared/db/screening-hits/index';
import { SCOPES } from '#shared/scopes';
import { ddb, givenOperator, OPERATOR_SCOPE_CLAIM, useHandlerHarness } from '#test/support/handler-harness';
import { httpEvent, invoke } from '#test/support/http-events';

/** POST /screening/hits/{id}/decision: what it refuses before anything is read. (Decisions are tested on DynamoDB Local.) */
useHandlerHarness();

const PERSON = '6f1e2d3c-4b5a-4987-8a6b-5c4d3e2f1a0b';
/** One of the service's operators (its alias record marks it so). */
const OPERATOR = 'ops-decide';
/** A partner's client given the operators' scope anyway (an alias created outside the stack, another issuer's client). */
const PARTNER_WITH_SCOPE = 'partner-with-review-scope';
beforeEach(() => givenOperator(OPERATOR));

const decide = (id: string, body: unknown, clientId = OPERATOR, scope = OPERATOR_SCOPE_CLAIM) =>
  invoke(
    decideHit,
    httpEvent({
      method: 'POST',
      path: `/screening/hits/${id}/decision`,
      routeKey: 'POST /screening/hits/{id}/decision',
      pathParameters: { id },
      body,
      claims: { client_id: clientId, sub: clientId, scope },
    }),
  );
/** The tenant data items read (the HTTP stack's own records, its alias and bucket, aside). */
const tenantDataRead = () =>
  ddb
    .commandCalls(GetCommand)
    .map((call) => String(call.args[0].input.Key?.pk))
    .filter((pk) => pk.startsWith('T#'));
const encoded = (parts: unknown) => Buffer.from(JSON.stringify(parts)).toString('base64url');

describe('POST /screening/hits/{id}/decision: who may decide', () => {
  const id = hitIdOf({ tenant: 'acme', personId: PERSON, list: 'sanctions', entryId: 'SDN-90001' });

  it.each([
    ['the operators’ scope alone', OPERATOR_SCOPE_CLAIM],
    ['every scope', [...SCOPES, 'review:screening'].map((scope) => `verify-service/${scope}`).join(' ')],
  ])(
    'refuses a partner’s client holding %s: 403 not_an_operator, and reads and writes nothing of any tenant',
    async (_what, scope) => {
      const res = await decide(id, { decision: 'false_positive' }, PARTNER_WITH_SCOPE, scope);

      expect(res.statusCode).toBe(403);
      expect(res.body.error_code).toBe('not_an_operator');
      expect(res.body.message).not.toContain(PARTNER_WITH_SCOPE);
      expect(tenantDataRead()).toEqual([]);
      expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
      expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
      expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    },
  );

  it('lets an operator through to the hit: an unknown one answers 404 unknown_id_screening_hit', async () => {
    const res = await decide(id, { decision: 'false_positive' });

    expect(res.statusCode).toBe(404);
    expect(res.body.error_code).toBe('unknown_id_screening_hit');
    expect(tenantDataRead()).toContain('T#acme#P#6f1e2d3c-4b5a-4987-8a6b-5c4d3e2f1a0b');
  });
});

describe('POST /screening/hits/{id}/decision: the hit id', () => {
  it.each([
    ['no base64url', 'not a hit id!'],
    ['not JSON', Buffer.from('hello').toString('base64url')],
    ['three parts', encoded(['acme', PERSON, 'sanctions'])],
    ['a person id that is no UUID', encoded(['acme', 'P#x', 'sanctions', 'SDN-1'])],
    ['a tenant holding a key separator', encoded(['acme#P#other', PERSON, 'sanctions', 'SDN-1'])],
    ['a list that does not exist', encoded(['acme', PERSON, 'ofac', 'SDN-1'])],
    ['an entry id holding a key separator', encoded(['acme', PERSON, 'sanctions', 'SDN-1#x'])],
    [
      'another spelling of a valid address',
      `${hitIdOf({ tenant: 'acme', personId: PERSON, list: 'sanctions', entryId: 'SDN-1' })}A`,
    ],
  ])('answers 404 unknown_id_screening_hit to an id with %s, and reads nothing', async (_what, id) => {
    const res = await decide(id, { decision: 'confirmed' });

    expect(res.statusCode).toBe(404);
    expect(res.body.error_code).toBe('unknown_id_screening_hit');
    expect(tenantDataRead()).toEqual([]);
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
    expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});

describe('POST /screening/hits/{id}/decision: the body', () => {
  const id = hitIdOf({ tenant: 'acme', personId: PERSON, list: 'sanctions', entryId: 'SDN-90001' });

  it.each([
    [{}, 'missing_decision'],
    [{ decision: 'maybe' }, 'invalid_decision'],
    [{ decision: 'confirmed', note: 'x'.repeat(501) }, 'invalid_note'],
    [{ decision: 'confirmed', by: 'someone-else' }, 'unknown_field'],
  ])('refuses %j: 400 %s', async (body, code) => {
    const res = await decide(id, body);

    expect(res.statusCode).toBe(400);
    expect(res.body.error_code).toBe(code);
    expect(tenantDataRead()).toEqual([]);
  });
});
