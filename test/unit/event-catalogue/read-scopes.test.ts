import { describe, expect, it } from 'vitest';
import { EVENT_LOG_SCOPES } from '#functions/event-catalogue/kinds';
import { insufficientScope, scopesToRead, unreadableSelectors } from '#functions/event-catalogue/read-scopes';

/**
 * What reading the kinds a selection stands for takes (a filter of the event log, a webhook
 * configuration's `event_types`): one rule for both, from EVENT_READ_SCOPE.
 */
describe('scopesToRead', () => {
  it('a kind takes the scope that reads it', () => {
    expect(scopesToRead(['verify_account_updated'])).toEqual(['read:verify-accounts']);
    expect(scopesToRead(['person_created', 'person_closed'])).toEqual(['read:persons']);
    expect(scopesToRead(['business_created'])).toEqual(['invoke:webhook']);
  });

  it('person_all takes read:persons (person_unverified is a person’s too)', () => {
    expect(scopesToRead(['person_all'])).toEqual(['read:persons']);
  });

  it('subscribe_all stands for every kind, so it takes every scope that reads one', () => {
    expect(scopesToRead(['subscribe_all'])).toEqual([...EVENT_LOG_SCOPES]);
    expect(scopesToRead(['subscribe_all'])).toEqual(['read:persons', 'read:verify-accounts', 'invoke:webhook']);
  });

  it('a name that stands for no kind takes nothing', () => {
    expect(scopesToRead(['no_such_kind'])).toEqual([]);
  });
});

describe('unreadableSelectors', () => {
  it('names each selector standing for a kind the scopes do not read, once, in the order given', () => {
    expect(
      unreadableSelectors(
        ['person_all', 'verify_account_updated', 'subscribe_all', 'verify_account_updated'],
        ['read:persons'],
      ),
    ).toEqual(['verify_account_updated', 'subscribe_all']);
  });

  it('names a selector that stands for no kind of the catalogue: nothing reads it', () => {
    expect(unreadableSelectors(['ledger_updated'], [...EVENT_LOG_SCOPES])).toEqual(['ledger_updated']);
  });

  it('names none when the scopes read every kind the selection stands for', () => {
    expect(unreadableSelectors(['subscribe_all'], [...EVENT_LOG_SCOPES, 'write:webhook-configurations'])).toEqual([]);
  });
});

describe('insufficientScope', () => {
  it('is 403 insufficient_scope naming the selection and the scopes the token lacks to read it', () => {
    const error = insufficientScope(['subscribe_all'], ['read:persons', 'write:webhook-configurations']);
    expect([error.statusCode, error.code]).toEqual([403, 'insufficient_scope']);
    expect(error.details).toEqual({
      event_types: ['subscribe_all'],
      required_scopes: ['read:verify-accounts', 'invoke:webhook'],
    });
  });

  it('with nothing asked, names every scope that reads some part of the event log', () => {
    expect(insufficientScope([], ['read:webhook-configurations']).details).toEqual({
      required_scopes: [...EVENT_LOG_SCOPES],
    });
  });
});
