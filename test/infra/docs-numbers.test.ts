import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#lib/repo-root';
import { QUEUES } from '#shared/queue/message-queue';
import { DOC_PAGES } from '#test/docs/generated-docs';
import { stackCounts, withStackCounts } from '#test/docs/stack-counts';
import { stackFacts } from '#test/docs/stack-facts';
import { spansOf } from '#test/support/doc-block';

/**
 * What the README and docs/ say the stack holds, held to the synthesized template as an
 * operator meets it, not to the rows that build it. The counts (routes, consumers,
 * dead-letter stores, alarms, tenant roles, resources, queues) are written by
 * `npm run docs:sync` between `docs:sync` markers (test/docs/stack-counts.ts): a page that
 * holds another fails here, saying to run it. The names a page lists (queues, schedules,
 * variables, outputs) sit in prose a person writes, each found by its sentence: one that
 * drifts fails with the sentence to change, one reworded so that the pattern misses it
 * with the pattern to move.
 */

const stack = stackFacts();
const facts = stack.sandbox;

const read = (page: string) => readFileSync(join(REPO_ROOT, page), 'utf8');

/** A sentence the page must still contain. */
function sentenceOf(page: string, pattern: RegExp): RegExpExecArray {
  const found = pattern.exec(read(page));
  if (!found) throw new Error(`${page} no longer says ${pattern}: state it again, or move this test's pattern`);
  return found;
}

/** The groups of a sentence the page must still contain. */
const claim = (page: string, pattern: RegExp): string[] => sentenceOf(page, pattern).slice(1);

/** Backticked names in a piece of text (`StreamRouter`, `ApiUrl`, …). */
const namesIn = (text: string) => [...text.matchAll(/`([A-Za-z][\w<>]*)`/g)].map((m) => m[1] as string);

describe('the counts the docs state are the template’s (written by npm run docs:sync)', () => {
  it.each(DOC_PAGES)('%s holds every count of the stack it states as the template gives it', (page) => {
    const doc = read(page);
    const figures = stackCounts(page, stack);
    // Throws, naming the way out, on a span no count is given for or a count whose span is gone.
    withStackCounts(page, doc, stack);
    const stale = spansOf(doc)
      .filter((span) => span.text !== figures[span.name])
      .map((span) => `${span.name}: the page says ${span.text}, the template ${figures[span.name]}`);
    expect(stale, `${page}'s counts are not the template's: run npm run docs:sync`).toEqual([]);
  });
});

describe('the names the docs state are the template’s', () => {
  it('operations.md: the redrive commands name every work queue', () => {
    const [example, list] = claim('docs/operations.md', /^QUEUE=(\w+)\s+# ([^\n]+)$/m);
    const named = list!.split(/, | or /).sort();
    expect(named).toEqual(facts.workQueueNames);
    expect(facts.workQueueNames).toContain(example);
  });

  it('deploy.md: the queue URL variables are the ones the functions get, and QUEUES names', () => {
    const [list] = claim('docs/deploy.md', /functions\/shared\/queue\/message-queue\.ts` \(`QUEUES`:([^)]*)\)/);
    const stated = namesIn(list!).sort();
    expect(stated).toEqual(facts.queueUrlVariables);
    expect(stated).toEqual(
      Object.values(QUEUES)
        .map((queue) => queue.envVar as string)
        .sort(),
    );
  });

  it('no page names a queue URL variable that does not exist', () => {
    for (const page of DOC_PAGES) {
      for (const [name] of read(page).matchAll(/\b[A-Z][A-Z_]*_QUEUE_URL\b/g)) {
        expect({ page, name, exists: facts.queueUrlVariables.includes(name) }).toEqual({ page, name, exists: true });
      }
    }
  });

  it('deploy.md and the README: the outputs the deploy prints', () => {
    for (const [page, pattern] of [
      ['docs/deploy.md', /The deploy prints ([^.]*?) per partner/],
      ['README.md', /The deploy prints ([^.]*?) per partner/],
    ] as const) {
      expect({ page, outputs: namesIn(claim(page, pattern)[0]!).sort() }).toEqual({ page, outputs: facts.outputs });
    }
  });

  it('deploy.md, the README and local.md: every consumer, schedule and queue by name', () => {
    const [today] = claim('docs/deploy.md', /\nToday: ([\s\S]*?)\n\n/);
    expect(namesIn(today!).sort()).toEqual(facts.consumerNames);
    const [cron] = claim('docs/deploy.md', /EventBridge cron \(UTC\) ──▶ ([^\n]+)/);
    expect(cron!.split(', ').sort()).toEqual(facts.scheduleNames);
    const [picture] = claim('docs/deploy.md', /\n```\ntable stream ([\s\S]*?)```/);
    const pairs = [...picture!.matchAll(/(\w+) queue(?: \([^)]*\))? ──▶ (\w+)/g)].map((m) => `${m[1]} → ${m[2]}`);
    expect(pairs.sort()).toEqual(facts.queueConsumers);

    const [jobs] = claim('README.md', /jobs\["([^"]+)"\]/);
    expect(jobs!.split(/<br\/>| · /).sort()).toEqual(facts.scheduleNames);
    const mermaidQueues = [...read('README.md').matchAll(/\[\["(\w+) queue"\]\] --> \w+\["(\w+)"\]/g)].map(
      (m) => `${m[1]} → ${m[2]}`,
    );
    expect(mermaidQueues.sort()).toEqual(facts.queueConsumers);

    const [table] = claim('docs/local.md', /\n\| consumer +\|[^\n]*\n\|[-| ]+\n((?:\|[^\n]*\n)+)/);
    const rows = table!.split('\n').flatMap((row) => /^\| `(\w+)`/.exec(row)?.[1] ?? []);
    expect(rows.sort()).toEqual(facts.consumerNames);
    const [ids] = claim('docs/local.md', /The queues are named by their ids in `QUEUES`:\s([^.]+)\./);
    const queueIds = facts.queueConsumers.map((pair) => pair.split(' → ')[0]);
    expect(namesIn(ids!).sort()).toEqual(queueIds);
    expect(Object.keys(QUEUES).sort()).toEqual(queueIds);
  });
});
