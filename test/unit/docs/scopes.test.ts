import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#lib/repo-root';
import { EVERY_ROUTE, routeKey } from '#lib/service/index';

/**
 * docs/api.md's "Scopes" tells a partner which scope opens which route. Its table names each
 * route of a scope as `` `GET /persons/{id}` ``, as a method with the end of its path
 * (`` `POST …/{id}/control` ``), or as methods on a path's start (`` `POST`, `PUT` on `/persons…` ``);
 * the operator scope is described below the table. A route whose scope's line does not
 * name it fails here: the table was written by hand, and a new route is easy to forget in it.
 */

const api = readFileSync(join(REPO_ROOT, 'docs/api.md'), 'utf8');
const section = api.slice(api.indexOf('\n## Scopes'), api.indexOf('\n## ', api.indexOf('\n## Scopes') + 1));

/** The text that describes a scope: its line of the table, or the section's prose for a scope not in the table. */
function wordsOf(scope: string): string {
  const line = section.split('\n').find((text) => text.startsWith(`| \`${scope}\``));
  return line ?? section.split('\n\n').find((paragraph) => paragraph.includes(`\`${scope}\``)) ?? '';
}

/** Whether `words` names the route, in one of the three ways the section writes a route. */
function names(words: string, method: string, path: string): boolean {
  if (words.includes(`\`${method} ${path}\``)) return true;
  const ends = [...words.matchAll(new RegExp(`\`${method} …([^\`]+)\``, 'g'))].map((match) => match[1] as string);
  if (ends.some((end) => path.endsWith(end))) return true;
  // `POST`, `PUT`, `DELETE` on `/persons…`
  for (const match of words.matchAll(/((?:`[A-Z]+`(?:, | and )?)+) on `([^`]+)…`/g)) {
    const methods = [...(match[1] as string).matchAll(/`([A-Z]+)`/g)].map((m) => m[1]);
    if (methods.includes(method) && path.startsWith(match[2] as string)) return true;
  }
  return false;
}

describe('docs/api.md, Scopes', () => {
  it('names every route under each scope the route admits', () => {
    const unnamed = EVERY_ROUTE.flatMap((route) =>
      route.scopes
        .filter((scope) => !names(wordsOf(scope), route.method, route.path))
        .map((scope) => `${routeKey(route)} under \`${scope}\``),
    );
    expect(
      unnamed,
      `docs/api.md#scopes does not name these: add each route to its scope's line of the table (\`GET /path\`, or beside the routes written as \`POST …/{id}/end\` or \`POST\`, \`PUT\` on \`/start…\`):\n${unnamed.join('\n')}`,
    ).toEqual([]);
  });
});
