import { readFileSync } from 'node:fs';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { parseOfacList } from '#domain/ofac-lists';
import { DEFAULT_SCREENING_THRESHOLD, type ListedPerson, matchListing } from '#domain/screening-match';
import { writeListChanges } from '#functions/screening/load-lists';
import { documentClient } from '#shared/db/document-client';
import { SCREENING_SHARDS } from '#shared/db/persons/item';
import { screeningListings } from '#shared/db/screening/index';
import { screeningKeys } from '#shared/db/screening/keys';
import { VARIANT_CLASSES, type VariantPerson, variants } from '#test/support/screening-variants';
import { api, OPERATOR } from '../harness';
import { personBody } from '../persons/support';
import { useScreeningRuntime } from './support';

/**
 * The list-change direction through the table (docs/api.md#screening): persons verified
 * while OFAC's listings were not on the lists, written the ways partners write names, are
 * `restricted` once a list change adds those listings (POST /local/sanctions/entries, with
 * their aliases), in every variant class: the same matcher as identification, so exactly
 * the persons it scores at the threshold, and at least 99 % of them all (the goal of
 * docs/testing.md#screening-quality).
 */
const { env } = useScreeningRuntime('tenant-list-change');
const file = (name: string) => ({ name, text: readFileSync(`test/fixtures/ofac/${name}`, 'utf8') });
const listings = parseOfacList({ source: 'SDN', primary: file('sdn.csv'), aliases: file('alt.csv') });
const byId = new Map(listings.map((listing) => [listing.entryId, listing]));
const PER_CLASS = 6;
const SLOW = { timeout: 600_000 };

describe('a list change restricts the verified persons it now names, in any variant', () => {
  it('every variant class, through the API and the pipeline', SLOW, async () => {
    const built = VARIANT_CLASSES.flatMap((kind) => variants(kind, listings, PER_CLASS, 33).map((p) => ({ kind, p })));
    const ids: { kind: string; person: VariantPerson; id: string }[] = [];
    for (const { kind, p } of built) {
      const over = { first_name: p.first_name, middle_name: p.middle_name, last_name: p.last_name };
      const response = await env.call.post(
        '/persons',
        personBody({ ...over, date_of_birth: p.date_of_birth ?? '1970-01-01' }),
      );
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      ids.push({ kind, person: p, id: response.body.person.id });
    }
    await env.runtime.settle();
    for (const { id } of ids) expect((await env.call.get(`/persons/${id}`)).body.person.status).toBe('verified');

    for (const entryId of new Set(ids.map(({ person }) => person.entryId as string))) {
      const listing = byId.get(entryId);
      if (!listing) throw new Error(entryId);
      const aliases = listing.names.filter((name) => name.kind !== 'primary').map((name) => name.name);
      const response = await env.call.post('/local/sanctions/entries', { name: listing.name, aliases });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
    }
    await env.runtime.settle();

    const outcome = await Promise.all(
      ids.map(async ({ kind, person, id }) => {
        const stored = (await env.call.get(`/persons/${id}`)).body.person;
        const listing = byId.get(person.entryId as string);
        const scored = matchListing({ ...person, date_of_birth: undefined }, listing as never).score;
        return {
          kind,
          id,
          status: stored.status,
          reasons: stored.status_reasons,
          expected: scored >= DEFAULT_SCREENING_THRESHOLD,
        };
      }),
    );
    // The table path answers as the matcher does, person by person.
    const wrong = outcome.filter(({ status, expected }) => (status === 'restricted') !== expected);
    expect(wrong).toEqual([]);
    const restricted = outcome.filter(({ status }) => status === 'restricted');
    expect(restricted.length / outcome.length).toBeGreaterThanOrEqual(0.99);
    for (const { reasons } of restricted) {
      expect(reasons.map((reason: { reason_code: string }) => reason.reason_code)).toEqual(['matched_watchlist']);
    }
  });

  it(
    'a change written to the table as the list loads write one restricts through the pipeline alone',
    SLOW,
    async () => {
      const [variant] = variants('exact', listings, 1, 34) as [VariantPerson];
      const { entryId, ...name } = variant;
      const person = await env.call.post(
        '/persons',
        personBody({ ...name, date_of_birth: name.date_of_birth ?? '1970-01-01' }),
      );
      await env.runtime.settle();
      const id = person.body.person.id;
      expect((await env.call.get(`/persons/${id}`)).body.person.status).toBe('verified');

      // No route re-screens in line here: the change's stream record and the screening queue do.
      const changeId = await writeListChanges({ put: [byId.get(entryId as string) as ListedPerson] });
      await env.runtime.settle();

      // Every shard's walk of this change is recorded, completed, against the version the change moved the lists to.
      const runs = await documentClient().send(
        new QueryCommand({
          TableName: env.runtime.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': screeningKeys.run(changeId, 0).pk },
        }),
      );
      const version = await screeningListings().version();
      expect(runs.Items?.map((run) => run.sk).sort()).toEqual(
        Array.from({ length: SCREENING_SHARDS }, (_, shard) => `SHARD#${shard}`).sort(),
      );
      for (const run of runs.Items ?? []) {
        expect(run).toMatchObject({ kind: 'change', lists_version: version, completed_at: expect.any(String) });
      }
      expect(runs.Items?.reduce((sum, run) => sum + run.screened, 0)).toBeGreaterThanOrEqual(1);
      expect(runs.Items?.reduce((sum, run) => sum + run.restricted, 0)).toBe(1);
      const stored = (await env.call.get(`/persons/${id}`)).body.person;
      expect({
        status: stored.status,
        reasons: stored.status_reasons.map((r: { reason_code: string }) => r.reason_code),
      }).toEqual({
        status: 'restricted',
        reasons: ['matched_watchlist'],
      });
    },
  );

  it(
    'a restriction by a list change is recorded as a hit to review; cleared, the person is verified and the next re-screen leaves it so',
    SLOW,
    async () => {
      const [variant] = variants('no_middle_name', listings, 1, 35) as [VariantPerson];
      const { entryId, ...name } = variant;
      const created = await env.call.post(
        '/persons',
        personBody({ ...name, date_of_birth: name.date_of_birth ?? '1970-01-01' }),
      );
      await env.runtime.settle();
      const id = created.body.person.id;
      await writeListChanges({ put: [byId.get(entryId as string) as ListedPerson] });
      await env.runtime.settle();
      expect((await env.call.get(`/persons/${id}`)).body.person.status).toBe('restricted');

      const operator = api(env.runtime, await env.runtime.mintToken(OPERATOR, ['review:screening']));
      const hits = (await operator.get(`/screening/hits?tenant=tenant-list-change&person_id=${id}`)).body
        .screening_hits;
      expect(hits).toMatchObject([{ status: 'open', entry_id: entryId, lists_version: expect.any(Number) }]);
      const cleared = await operator.post(`/screening/hits/${hits[0].id}/decision`, { decision: 'false_positive' });
      expect(cleared.status).toBe(200);
      expect((await env.call.get(`/persons/${id}`)).body.person.status).toBe('verified');

      await env.runtime.runSchedule('DailyRescreen');
      await env.runtime.settle();
      expect((await env.call.get(`/persons/${id}`)).body.person.status).toBe('verified');
    },
  );
});
