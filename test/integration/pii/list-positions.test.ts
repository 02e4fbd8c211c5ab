import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '#lib/local/runtime';
import { requestSchemasOf } from '#lib/openapi/contract';
import { ROUTES, type RouteDefinition } from '#lib/service/index';
import { ENTITY } from '#shared/db/entities';
import { api, startTestRuntime } from '../harness';
import { accountBody } from '../verify-accounts/support';
import { scanTable } from './support';

/**
 * A list position (functions/shared/db/list-positions/) keeps its list's filter: in the
 * item (`query`, `after_read`) and, for a bookmark, as a digest in its key. A list filtered
 * by account number must keep the number as nothing a table reader can read or confirm a
 * guess of: neither the number nor an unkeyed digest of it, only the keyed digest its
 * index partition is named by. The lists that take the filter are read from the route
 * table and the query schemas their handlers validate with, so a list that starts taking
 * one is held to the same rule.
 */
let runtime: LocalRuntime;
const TENANT = 'tenant-positions';
const ACCOUNT_NUMBER = '73120453308';
const ROUTING = '021000021';

/** Every list route whose query takes `account_number`, with the parameters its query takes. */
let filteredLists: { route: RouteDefinition; parameters: string[] }[];

/** The parameters a route's query schema names (a list's are an object schema's keys). */
async function queryParametersOf(route: RouteDefinition): Promise<string[]> {
  const { query } = await requestSchemasOf(route);
  return query && 'shape' in query ? Object.keys(query.shape as object) : [];
}

beforeAll(async () => {
  runtime = await startTestRuntime();
  const routes = ROUTES.filter((route) => route.method === 'GET' && (route.auth ?? 'jwt') === 'jwt');
  const lists = await Promise.all(routes.map(async (route) => ({ route, parameters: await queryParametersOf(route) })));
  filteredLists = lists.filter(
    ({ parameters }) => parameters.includes('cursor') && parameters.includes('account_number'),
  );
  const alice = api(runtime, await runtime.mintToken(TENANT));
  for (let i = 0; i < 3; i++) {
    const created = await alice.post(
      '/verify/accounts',
      accountBody({ account_number: ACCOUNT_NUMBER, routing_number: ROUTING, type: 'status' }),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
  }
  await runtime.settle();
  for (const { route, parameters } of filteredLists) {
    const call = api(runtime, await runtime.mintToken(TENANT, route.scopes));
    const filtered = `${route.path}?account_number=${ACCOUNT_NUMBER}&size=1`;
    // By cursor, and by page number (where a bookmarkable list reads and keeps a bookmark);
    // with a status filter too, which the account-number list tests after the read (`after_read`).
    const paths = [filtered, `${filtered}&index=1`];
    if (parameters.includes('verification_status')) paths.push(`${filtered}&verification_status=pending,valid`);
    for (const path of paths) {
      const first = await call.get(path);
      expect(first.status, `${path}: ${JSON.stringify(first.body)}`).toBe(200);
      const next = /<([^>]+)>; rel="next"/.exec(first.headers.link ?? '')?.[1];
      if (next) expect((await call.get(next)).status).toBe(200);
    }
  }
}, 60_000);

afterAll(() => runtime?.stop());

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8');

/** Every form of the number and of its unkeyed digests a table reader would look for. */
const GUESSES: readonly { label: string; text: string }[] = [
  ACCOUNT_NUMBER,
  `account-number\n${ACCOUNT_NUMBER}`,
].flatMap((value, i) => {
  const of = i === 0 ? 'the account number' : 'the account number with its digest label';
  const hex = sha256(value).digest('hex');
  return [
    ...(i === 0 ? [{ label: of, text: value }] : []),
    { label: `sha256 hex of ${of}`, text: hex },
    { label: `sha256 hex/32 of ${of}`, text: hex.slice(0, 32) },
    { label: `sha256 base64 of ${of}`, text: sha256(value).digest('base64') },
    { label: `sha256 base64url of ${of}`, text: sha256(value).digest('base64url') },
  ];
});

describe('list positions of a list filtered by account number', () => {
  it('are stored by the lists that take the filter (the test has something to look at)', async () => {
    expect(filteredLists.map(({ route }) => route.path)).toContain('/verify/accounts');
    const positions = (await scanTable(runtime)).filter((item) => item.entity === ENTITY.listPosition);
    // The account-number list walks its byLookup partition, named by the number's keyed digest.
    expect(positions.filter((item) => String(item.query).includes('#VAN#')).length).toBeGreaterThanOrEqual(2);
  });

  it('hold neither the number nor an unkeyed digest of it, in their key or any attribute', async () => {
    const positions = (await scanTable(runtime)).filter((item) => item.entity === ENTITY.listPosition);
    const found = positions.flatMap((item) => {
      const text = JSON.stringify(item);
      return GUESSES.filter(({ text: guess }) => text.includes(guess) || text.toLowerCase().includes(guess)).map(
        ({ label }) => `${String(item.pk)}: ${label}`,
      );
    });
    expect(found).toEqual([]);
  });
});
