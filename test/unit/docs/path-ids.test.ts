import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#lib/repo-root';
import { EVERY_ROUTE } from '#lib/service/index';
import { isOperatorScope } from '#shared/scopes';
import { givenOperator, OPERATOR_SCOPE_CLAIM, useHandlerHarness } from '#test/support/handler-harness';
import { httpEvent, invoke } from '#test/support/http-events';

/**
 * docs/api.md's "Malformed path ids" table is what each `{id}` route answers for an id that
 * is not one: every route with a path id is sent one, and must answer its path's line. A
 * route added with a path id of a new kind fails here until the table names its path.
 */

useHandlerHarness();

const MALFORMED_ID = 'not-a-uuid';
/** One of the service's operators (its alias record marks it so). */
const OPERATOR = 'ops-path-ids';

/** The table's lines: each path it names, with the `<status> <code>` of that line. */
function documentedAnswers(): Map<string, { status: number; code: string }> {
  const api = readFileSync(join(REPO_ROOT, 'docs/api.md'), 'utf8');
  const start = api.indexOf('\n### Malformed path ids\n');
  if (start < 0) throw new Error('docs/api.md has no "### Malformed path ids" section: this test reads its table');
  const section = api.slice(start + 1, api.indexOf('\n#', start + 1));
  const answers = new Map<string, { status: number; code: string }>();
  for (const line of section.split('\n').filter((l) => l.startsWith('| `/'))) {
    const [paths = '', answer = ''] = line.split('|').slice(1, 3);
    const found = /`(\d{3}) ([a-z_]+)`/.exec(answer);
    if (!found) throw new Error(`docs/api.md, Malformed path ids: no \`<status> <code>\` in the line ${line}`);
    for (const [, path] of paths.matchAll(/`([^`]+)`/g)) {
      answers.set(path as string, { status: Number(found[1]), code: found[2] as string });
    }
  }
  return answers;
}

const documented = documentedAnswers();
const routesWithId = EVERY_ROUTE.filter((route) => route.path.includes('{id}'));

describe('docs/api.md, Malformed path ids', () => {
  it('names every path with an id, and only those', () => {
    expect(
      [...documented.keys()].sort(),
      'docs/api.md, "Malformed path ids": name each path with {id} in the line of what a malformed id answers (its path-params.ts schema says), and no other path',
    ).toEqual([...new Set(routesWithId.map((route) => route.path))].sort());
  });

  it.each(routesWithId.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s answers a malformed id as the table says',
    async (_, route) => {
      const { handler } = (await import(join(REPO_ROOT, route.handler))) as { handler: Parameters<typeof invoke>[0] };
      const path = route.path.replace('{id}', MALFORMED_ID);

      // An operator route serves the service's operators alone: its caller is one.
      const operator = route.scopes.some(isOperatorScope);
      if (operator) givenOperator(OPERATOR);
      const res = await invoke(
        handler,
        httpEvent({
          method: route.method,
          path,
          routeKey: `${route.method} ${route.path}`,
          pathParameters: { id: MALFORMED_ID },
          ...(operator && { claims: { client_id: OPERATOR, sub: OPERATOR, scope: OPERATOR_SCOPE_CLAIM } }),
        }),
      );

      const expected = documented.get(route.path);
      expect(
        { status: res.statusCode, code: res.body?.error_code },
        expected
          ? undefined
          : `docs/api.md, "Malformed path ids" names no ${route.path}: add it to the line of what it answers`,
      ).toEqual(expected);
    },
  );
});
