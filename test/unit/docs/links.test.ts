import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#lib/repo-root';

/**
 * The README and docs/ are what a newcomer follows on a fresh clone: every link between
 * them, and every `docs/<page>.md#<section>` the code cites, must land on an existing page
 * and heading; nothing may point outside the repository (a clone has nothing there).
 */

const pages = ['README.md', ...readdirSync(join(REPO_ROOT, 'docs')).map((name) => `docs/${name}`)].filter((path) =>
  path.endsWith('.md'),
);

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2… */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) inFence = !inFence;
    const heading = inFence ? undefined : /^#{1,6} (.+)$/.exec(line)?.[1];
    if (!heading) continue;
    const base = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

const anchorCache = new Map<string, Set<string>>();
function anchorsOfFile(path: string): Set<string> {
  let anchors = anchorCache.get(path);
  if (!anchors) {
    anchors = anchorsOf(readFileSync(path, 'utf8'));
    anchorCache.set(path, anchors);
  }
  return anchors;
}

/** Why a link from `fromFile` to `target` (`path#anchor`, relative to `fromDir`) is broken, or undefined. */
function brokenLink(fromFile: string, fromDir: string, target: string): string | undefined {
  const [path = '', anchor] = target.split('#');
  const file = path === '' ? fromFile : resolve(fromDir, path);
  if (relative(REPO_ROOT, file).startsWith('..')) return 'points outside the repository';
  if (!existsSync(file)) return 'no such file';
  if (anchor && file.endsWith('.md') && !anchorsOfFile(file).has(anchor)) return `no heading #${anchor}`;
  return undefined;
}

function markdownLinks(markdown: string): string[] {
  const withoutCode = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...withoutCode.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] as string);
}

describe('documentation links', () => {
  it.each(pages)('%s: every relative link lands on a file and heading of the repository', (page) => {
    const file = join(REPO_ROOT, page);
    const broken = markdownLinks(readFileSync(file, 'utf8'))
      .filter((target) => !/^[a-z]+:/.test(target))
      .map((target) => ({ target, problem: brokenLink(file, dirname(file), target) }))
      .filter((link) => link.problem);
    expect(broken).toEqual([]);
  });

  it.each(pages)('%s: never refers to files outside the repository', (page) => {
    const text = readFileSync(join(REPO_ROOT, page), 'utf8');
    expect(text).not.toMatch(/\.\.\/shared\/|\/work\//);
  });

  it('every docs/<page>.md#<section> cited in the code exists', () => {
    const sourceFiles = ['functions', 'lib', 'bin'].flatMap((dir) =>
      readdirSync(join(REPO_ROOT, dir), { recursive: true, encoding: 'utf8' })
        .filter((name) => name.endsWith('.ts'))
        .map((name) => join(REPO_ROOT, dir, name)),
    );
    const citations = sourceFiles.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/docs\/([a-z-]+\.md)(#[a-z0-9-]+)?/g)].map((match) => ({
        file: relative(REPO_ROOT, file),
        target: `${match[1]}${match[2] ?? ''}`,
      })),
    );
    expect(citations.length).toBeGreaterThan(20);
    const broken = citations
      .map((citation) => ({
        ...citation,
        problem: brokenLink('', join(REPO_ROOT, 'docs'), citation.target),
      }))
      .filter((citation) => citation.problem);
    expect(broken).toEqual([]);
  });

  it.each(pages)('%s: every file or folder it names under test/, functions/, lib/ or bin/ exists', (page) => {
    // A path with a placeholder (`functions/<area>/…`, `lib/service/*.ts`) names a pattern, not a file.
    const named = [
      ...readFileSync(join(REPO_ROOT, page), 'utf8').matchAll(
        /(?<![\w./#-])((?:test|functions|lib|bin)\/[\w./*{}<>…-]+)/g,
      ),
    ]
      .map((match) => (match[1] as string).replace(/[.,:;]+$/, ''))
      .filter((path) => !/[*{}<>…]/.test(path));
    const missing = [...new Set(named)].filter((path) => !existsSync(join(REPO_ROOT, path)));
    expect(missing, `${page} names these paths, which do not exist: fix the page (or the path)`).toEqual([]);
  });
});
