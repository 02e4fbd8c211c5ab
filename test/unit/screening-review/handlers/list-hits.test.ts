import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler as listHits } from '#functions/screening-review/handlers/list-hits';
import { SCOPES } from '#shared/scopes';
import { ddb, givenOperator, OPERATOR_SCOPE_CLAIM, useHandlerHarness } from '#test/support/handler-harness';
import { httpEvent, invoke } from '#test/support/http-events';

/** GET /screening/hits: only the service's operators read the hits, whatever scopes another client holds. (Listing is tested on DynamoDB Local.) */
useHandlerHarness();

/** One of the service's operators (its alias record marks it so). */
const OPERATOR = 'ops-list';
/** A partner's client given the operators' scope anyway (an alias created outside the stack, another issuer's client). */
const PARTNER_WITH_SCOPE = 'partner-with-review-scope';
const PERSON = '6f1e2d3c-4b5a-4987-8a6b-5c4d3e2f1a0b';
beforeEach(() => givenOperator(OPERATOR));

const list = (rawQueryString: string, clientId = OPERATOR, scope = OPERATOR_SCOPE_CLAIM) =>
  invoke(
    listHits,
    httpEvent({
      method: 'GET',
      path: '/screening/hits',
      routeKey: 'GET /screening/hits',
      rawQueryString,
      claims: { client_id: clientId, sub: clientId, scope },
    }),
  );

/** Every table read but the HTTP stack's own (the client's alias). */
const dataReads = () => [
  ...ddb.commandCalls(QueryCommand),
  ...ddb.commandCalls(GetCommand).filter((call) => !String(call.args[0].input.Key?.pk).startsWith('CLIENT#')),
];

describe('GET /screening/hits: who may read', () => {
  it.each([
    ['every tenant’s open hits', '', OPERATOR_SCOPE_CLAIM],
    ['one person’s hits', `tenant=acme&person_id=${PERSON}`, OPERATOR_SCOPE_CLAIM],
    [
      'every tenant’s open hits, with every scope',
      '',
      [...SCOPES, 'review:screening'].map((scope) => `verify-service/${scope}`).join(' '),
    ],
  ])(
    'refuses a partner’s client holding the operators’ scope (%s): 403 not_an_operator, and reads nothing',
    async (_what, query, scope) => {
      const res = await list(query, PARTNER_WITH_SCOPE, scope);

      expect(res.statusCode).toBe(403);
      expect(res.body.error_code).toBe('not_an_operator');
      expect(res.body.message).not.toContain(PARTNER_WITH_SCOPE);
      expect(dataReads()).toEqual([]);
    },
  );

  it('lets an operator read every tenant’s open hits', async () => {
    const res = await list('');

    expect(res.statusCode).toBe(200);
    expect(res.body).toEqual({ screening_hits: [] });
    expect(ddb.commandCalls(QueryCommand).length).toBeGreaterThan(0);
  });

  it('lets an operator read one person’s hits', async () => {
    const res = await list(`tenant=acme&person_id=${PERSON}`);

    expect(res.statusCode).toBe(200);
    expect(res.body).toEqual({ screening_hits: [] });
  });
});
