import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MINIMUM_NODE } from '#lib/local/preflight';
import { REPO_ROOT } from '#lib/repo-root';

/**
 * Two Node.js versions matter, and the docs name both: the one that runs npm (`engines` in
 * package.json, the lockfile's copy of it) and the one `npm ci` installs, on which `npm
 * start`, the tests and `npx cdk` run (the `node` devDependency, the preflight's minimum).
 * Each page that states one must state the manifest's.
 */

const read = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');
const pkg = JSON.parse(read('package.json')) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
};
const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { engines?: { node?: string } }> };

/** `>=20` → `20`; anything else is a range the docs cannot state in one number. */
function floor(range: string): string {
  const found = /^>=\s*(\d+(?:\.\d+)*)$/.exec(range.trim());
  if (!found) throw new Error(`engines.node "${range}" is not ">=<version>": say in the docs what it allows`);
  return found[1] as string;
}

const runsNpm = floor(pkg.engines.node);
const installed = /^\^?(\d+)\./.exec(pkg.devDependencies.node ?? '')?.[1];

/** Where a page states the Node.js that runs npm, and how it says it. */
const npmNodeClaims: [page: string, pattern: RegExp][] = [
  ['README.md', /any \*\*Node\.js that can run npm\*\* \((\d+(?:\.\d+)*) or newer\)/],
  ['README.md', /You need the Node\.js of the quick start \((\d+(?:\.\d+)*) or newer, to run `npm ci`/],
  [
    'docs/deploy.md',
    /Prerequisites: a Node\.js that can run npm, (\d+(?:\.\d+)*) or newer \(`engines` in package\.json\)/,
  ],
  ['docs/decisions.md', /`engines` says `>=(\d+(?:\.\d+)*)`/],
];

/** Where a page states the Node.js `npm ci` installs. */
const installedNodeClaims: [page: string, pattern: RegExp][] = [
  ['README.md', /`npm ci` also installs Node\.js (\d+), the version Lambda runs/],
  ['README.md', /`npx cdk` then runs\son the Node\.js (\d+) it installs/],
  ['docs/deploy.md', /`npm ci` run with it, which installs Node\.js (\d+)/],
  ['docs/local.md', /The runtime itself runs on Node\.js\s(\d+), as Lambda does/],
  ['docs/testing.md', /The tests run on Node\.js (\d+), the version Lambda runs/],
];

function stated(page: string, pattern: RegExp): string {
  const found = pattern.exec(read(page));
  if (!found) throw new Error(`${page} no longer says ${pattern}: update this test to where it states the version`);
  return found[1] as string;
}

describe('the Node.js versions the docs state', () => {
  it('agree on the Node that runs npm with package.json engines and the lockfile', () => {
    expect(lock.packages['']?.engines?.node).toBe(pkg.engines.node);
    for (const [page, pattern] of npmNodeClaims)
      expect({ page, version: stated(page, pattern) }).toEqual({ page, version: runsNpm });
  });

  it('agree on the Node that npm ci installs with the node devDependency and the preflight', () => {
    expect(MINIMUM_NODE.split('.')[0]).toBe(installed);
    for (const [page, pattern] of installedNodeClaims)
      expect({ page, version: stated(page, pattern) }).toEqual({ page, version: installed });
  });

  it('state no other minimum anywhere (a "Node.js ≥ x" is the engines floor)', () => {
    const pages = [
      'README.md',
      ...['api', 'deploy', 'local', 'operations', 'testing', 'decisions'].map((p) => `docs/${p}.md`),
    ];
    for (const page of pages) {
      for (const [, version] of read(page).matchAll(/Node(?:\.js)? ?(?:≥|>=) ?(\d+(?:\.\d+)*)/g)) {
        expect({ page, version }).toEqual({ page, version: runsNpm });
      }
    }
  });
});
