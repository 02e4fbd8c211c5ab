import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { documentClient } from '#shared/db/document-client';
import { personKeys } from '#shared/db/persons/keys';
import { screeningListings } from '#shared/db/screening/index';
import { personBody } from '../persons/support';
import { useScreeningRuntime } from './support';

/**
 * Identification screens with the scored matcher against the lists held in memory
 * (docs/api.md#screening): the sandbox lists' names written the ways partners write them
 * are caught, another given name under a listed surname is not, a conflicting date of
 * birth rules a dated listing out, and a listing added later is seen by the next person.
 */
const { env, identified } = useScreeningRuntime('tenant-scored-screening');

describe('screening at identification: the scored matcher', () => {
  it.each([
    ['under an alias the list gives (alt.csv)', { first_name: 'Sandie', last_name: 'Sanctionne' }],
    ['with a slip in the surname', { first_name: 'Sandy', last_name: 'Sanctiond' }],
    ['with a middle name the list lacks', { first_name: 'Sandy', middle_name: 'Quinn', last_name: 'Sanctioned' }],
    ['with given name and surname swapped', { first_name: 'Sanctioned', last_name: 'Sandy' }],
    [
      'without the middle name the list has, and the listed date of birth',
      { first_name: 'Casey', last_name: 'Doblisted', date_of_birth: '1961-03-12' },
    ],
  ])('a listed person written %s is rejected: matched_watchlist', async (_, over) => {
    expect(await identified(over)).toEqual({ status: 'rejected', reasons: ['matched_watchlist'] });
  });

  it('another given name under a listed surname is verified', async () => {
    expect(await identified({ first_name: 'Maria', last_name: 'Sanctioned' })).toEqual({
      status: 'verified',
      reasons: [],
    });
  });

  it('a dated listing with a date of birth no listed date allows is verified', async () => {
    const other = await identified({ first_name: 'Casey', last_name: 'Doblisted', date_of_birth: '1990-04-12' });
    expect(other).toEqual({ status: 'verified', reasons: [] });
  });

  it('a listing added later (POST /local/sanctions/entries) is seen by the next identification, in any variant', async () => {
    expect((await env.call.post('/local/sanctions/entries', { name: 'KOVALENKO, Taras Ivanovych' })).status).toBe(201);
    expect(await identified({ first_name: 'Taras', last_name: 'Kovalenk' })).toEqual({
      status: 'rejected',
      reasons: ['matched_watchlist'],
    });
  });

  it('keeps the lists’ version an identification screened against with the person, never in its answers', async () => {
    const created = await env.call.post('/persons', personBody({ first_name: 'Vera', last_name: 'Versioned' }));
    await env.runtime.settle();
    const id = created.body.person.id;
    const stored = await documentClient().send(
      new GetCommand({ TableName: env.runtime.tableName, Key: personKeys.person('tenant-scored-screening', id) }),
    );
    expect(stored.Item?.screening_lists_version).toBe(await screeningListings().version());
    expect((await env.call.get(`/persons/${id}`)).body.person).not.toHaveProperty('screening_lists_version');
  });
});
