import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#lib/repo-root';
import { EVERY_ROUTE, routeKey } from '#lib/service/index';

/**
 * docs/api.md is the contract partners read, so it names every route of lib/service/: as a
 * line of its area's table of routes (`| GET | `/persons/{id}` | …`) or as `` `GET /persons/{id}` ``
 * where its section describes it. A route added without its words there fails here.
 */

const api = readFileSync(join(REPO_ROOT, 'docs/api.md'), 'utf8');

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const named = (method: string, path: string): boolean =>
  api.includes(`\`${method} ${path}\``) ||
  new RegExp(`^\\|\\s*${method}\\s*\\|\\s*\`${escaped(path)}\`\\s*\\|`, 'm').test(api);

describe('docs/api.md, every route', () => {
  it('names every route of the route table', () => {
    const unnamed = EVERY_ROUTE.filter((route) => !named(route.method, route.path)).map(routeKey);
    expect(
      unnamed,
      'docs/api.md names none of these: add each as a line of its area’s table of routes (| GET | `/persons/{id}` | scope | …) or as `GET /persons/{id}` where its section describes it, and its scope’s line in "Scopes"',
    ).toEqual([]);
  });
});
