import { describe, expect, it } from 'vitest';
import {
  AREAS,
  CONSUMERS,
  joinAccesses,
  ROUTES,
  STREAM_ROUTER,
  type TableAccess,
  tableAccessOf,
  tableAccessOfRoute,
} from '#lib/service/index';
import { KEY_PREFIX, type KeyKind } from '#shared/db/key-kinds';

// The rows of lib/service say which kinds of record (KEY_PREFIX) each table access reaches,
// so the stack can confine every item action with dynamodb:LeadingKeys (test/infra pins the
// grants; the drift check holds the rows to the keys the code sends).

const KINDS = Object.keys(KEY_PREFIX) as KeyKind[];
const kindsOf = (access: TableAccess): string => [...(access.leadingKeys ?? [])].sort().join(' ');

const rowsWithTable = [
  ...ROUTES.map((route) => [`route ${route.id}`, tableAccessOf(route)] as const),
  ...CONSUMERS.map((consumer) => [`consumer ${consumer.id}`, tableAccessOf(consumer)] as const),
  ...AREAS.flatMap((area, n) =>
    area.streamRules ? [[`stream rules of area ${n}`, tableAccessOf(area.streamRules)] as const] : [],
  ),
];

describe('table accesses name the kinds of key they reach', () => {
  it.each(rowsWithTable)(
    '%s: every access with item actions names its key kinds, each a KEY_PREFIX kind',
    (_, accesses) => {
      for (const access of accesses.filter((a) => a.actions.length > 0)) {
        expect(access.leadingKeys ?? [], `${access.actions.join(', ')} names no leadingKeys`).not.toEqual([]);
        for (const kind of access.leadingKeys ?? []) expect(KINDS).toContain(kind);
      }
    },
  );

  it('every route’s grant (its row and the HTTP stack’s share) is confined, access by access', () => {
    for (const route of ROUTES) {
      for (const access of tableAccessOfRoute(route).filter((a) => a.actions.length > 0)) {
        expect(access.leadingKeys?.length ?? 0, `${route.id}: ${access.actions.join(', ')}`).toBeGreaterThan(0);
      }
    }
  });

  it('reads and writes of different kinds stay apart: the identification worker reads screening entries and writes only tenant data', () => {
    const worker = CONSUMERS.find((consumer) => consumer.id === 'IdentificationWorker');
    if (!worker) throw new Error('no IdentificationWorker row');
    const accesses = tableAccessOf(worker);
    const writing = accesses.filter((a) =>
      a.actions.some((action) => ['PutItem', 'UpdateItem', 'DeleteItem'].includes(action)),
    );
    expect(writing.map(kindsOf)).toEqual(['tenantData']);
    expect(accesses.some((a) => a.actions.includes('BatchGetItem') && a.leadingKeys?.includes('screeningEntry'))).toBe(
      true,
    );
  });
});

describe('the stream router’s table access', () => {
  const ruleAccesses = AREAS.flatMap((area) => (area.streamRules ? tableAccessOf(area.streamRules) : []));
  const routerAccesses = tableAccessOf(STREAM_ROUTER);

  it('joins the areas’ rules only where their keys are equal: one access per set of key kinds', () => {
    const keySets = routerAccesses.map(kindsOf);
    expect(new Set(keySets).size).toBe(keySets.length);
  });

  it('holds exactly what the areas’ rules name, kind by kind, and nothing on keys no rule names', () => {
    for (const access of routerAccesses) {
      const same = ruleAccesses.filter((rule) => kindsOf(rule) === kindsOf(access));
      expect(same.length, `no rule names ${kindsOf(access)}`).toBeGreaterThan(0);
      expect([...access.actions].sort()).toEqual([...new Set(same.flatMap((rule) => rule.actions))].sort());
    }
  });
});

describe('joinAccesses', () => {
  it('joins accesses to the same kinds of key into one and keeps accesses to other kinds apart', () => {
    const joined = joinAccesses([
      { actions: ['PutItem'], leadingKeys: ['tenantData'] },
      { actions: ['Query'], leadingKeys: ['tenantData'] },
      { actions: ['Query'], leadingKeys: ['screeningEntry'] },
      { actions: [], indexes: ['byLookup'] },
    ]);
    expect(joined).toEqual([
      { actions: ['PutItem', 'Query'], leadingKeys: ['tenantData'] },
      { actions: ['Query'], leadingKeys: ['screeningEntry'] },
      { actions: [], indexes: ['byLookup'] },
    ]);
  });

  it('drops accesses that ask for nothing', () => {
    expect(joinAccesses([{ actions: [] }, { actions: ['GetItem'], leadingKeys: ['tenantData'] }])).toEqual([
      { actions: ['GetItem'], leadingKeys: ['tenantData'] },
    ]);
  });
});
