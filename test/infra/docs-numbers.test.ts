import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#lib/repo-root';
import { QUEUES } from '#shared/queue/message-queue';
import { propsOf, refId, resourcesOf, synthTemplate } from './harness';

/**
 * What the README and docs/ say the stack holds (how many routes, consumers, dead-letter
 * stores, alarms, tenant roles and resources; which queues, schedules, variables and outputs)
 * is read from the synthesized template, as an operator meets it, not from the rows that
 * build it: a page that drifts from the stack fails here with the sentence to change. Each
 * claim is found by its sentence; one reworded so that the pattern misses it fails too, with
 * the pattern to move.
 */

const sandbox = synthTemplate();
const rails = synthTemplate({
  context: { bankProvider: 'increase', increaseAccountId: 'account_in71c4amph0vgo2qllky' },
});

/** What the docs count, from a template. */
function factsOf(template: Template) {
  const resources = template.toJSON().Resources as Record<string, { Type: string }>;
  const functions = resourcesOf(template, 'AWS::Lambda::Function');
  const mappings = Object.values(resourcesOf(template, 'AWS::Lambda::EventSourceMapping')).map((m) => propsOf(m));
  const rules = Object.values(resourcesOf(template, 'AWS::Events::Rule')).map((r) => propsOf(r));
  const queues = resourcesOf(template, 'AWS::SQS::Queue');
  const ruleTargets = rules.flatMap((rule) => rule.Targets as { Arn: unknown; DeadLetterConfig?: { Arn: unknown } }[]);
  /** A consumer's name: its function's description up to the colon (`VerificationWorker: verification queue`). */
  const nameOf = (functionId: string) => String(propsOf(functions[functionId], functionId).Description).split(':')[0]!;

  const tables = resourcesOf(template, 'AWS::DynamoDB::Table');
  const streamConsumers = mappings.filter((m) => tables[refId(m.EventSourceArn) ?? ''] !== undefined);
  const queueConsumers = mappings.filter((m) => queues[refId(m.EventSourceArn) ?? ''] !== undefined);
  const scheduleConsumers = ruleTargets.map((target) => refId(target.Arn)!);
  const consumerIds = new Set([...mappings.map((m) => refId(m.FunctionName)!), ...scheduleConsumers]);
  const workQueues = Object.entries(queues).filter(([, q]) => q.Properties?.RedrivePolicy !== undefined);
  const deadLetterStores = new Set([
    ...workQueues.map(([, q]) => refId(q.Properties?.RedrivePolicy.deadLetterTargetArn)),
    ...mappings.flatMap((m) => refId(m.DestinationConfig?.OnFailure?.Destination) ?? []),
    ...ruleTargets.flatMap((target) => refId(target.DeadLetterConfig?.Arn) ?? []),
  ]);
  const tenantRoles = new Set(
    Object.values(functions).flatMap((f) => refId(f.Properties?.Environment?.Variables?.TENANT_ROLE_ARN) ?? []),
  );
  const tenantRolePolicies = Object.values(resourcesOf(template, 'AWS::IAM::Policy')).filter((p) =>
    ((p.Properties?.Roles ?? []) as unknown[]).some((role) => tenantRoles.has(refId(role)!)),
  );
  const alarms = Object.keys(resourcesOf(template, 'AWS::CloudWatch::Alarm')).length;
  const routes = Object.keys(resourcesOf(template, 'AWS::ApiGatewayV2::Route')).length;

  return {
    resources: Object.keys(resources).length,
    routes,
    consumers: consumerIds.size,
    consumerNames: [...consumerIds].map(nameOf).sort(),
    scheduleNames: scheduleConsumers.map(nameOf).sort(),
    /** Each queue consumer's queue id, from its description (`…: <queue id> queue`), with the consumer. */
    queueConsumers: queueConsumers
      .map((m) => {
        const [name, source] = String(propsOf(functions[refId(m.FunctionName)!]).Description).split(': ');
        return `${source!.replace(/ queue$/, '')} → ${name}`;
      })
      .sort(),
    streamConsumers: streamConsumers.length,
    workQueues: workQueues.length,
    /** The part of each work queue's dead-letter queue's logical id that operations.md's redrive commands vary. */
    workQueueNames: workQueues
      .map(
        ([, q]) => /^Pipeline(\w+?)QueueDeadLetters/.exec(refId(q.Properties?.RedrivePolicy.deadLetterTargetArn)!)?.[1],
      )
      .sort(),
    deadLetterStores: deadLetterStores.size,
    /** Queues under SQS's own key rather than the storage key. */
    sseSqsQueues: Object.values(queues).filter((q) => q.Properties?.KmsMasterKeyId === undefined).length,
    alarms,
    /** Alarms of the stack as a whole: not on a function's Errors or Throttles, a store or an iterator age. */
    stackAlarms: alarms - 2 * (routes + consumerIds.size) - deadLetterStores.size - streamConsumers.length,
    tenantRoles: tenantRoles.size,
    tenantRoleResources: tenantRoles.size + tenantRolePolicies.length,
    queueUrlVariables: [
      ...new Set(
        Object.values(functions).flatMap((f) =>
          Object.keys(f.Properties?.Environment?.Variables ?? {}).filter((name) => name.endsWith('_QUEUE_URL')),
        ),
      ),
    ].sort(),
    outputs: Object.keys(template.findOutputs('*'))
      .map((name) => (name.startsWith('ClientId') ? 'ClientId<partner>' : name))
      .filter((name, i, all) => all.indexOf(name) === i)
      .sort(),
  };
}

const facts = factsOf(sandbox);
const railsFacts = factsOf(rails);

const read = (page: string) => readFileSync(join(REPO_ROOT, page), 'utf8');
const PAGES = ['README.md', ...readdirSync(join(REPO_ROOT, 'docs')).map((name) => `docs/${name}`)].filter((page) =>
  page.endsWith('.md'),
);

const WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
];
/** `9` or `nine` (any case) → 9. */
function numberOf(text: string): number {
  const word = WORDS.indexOf(text.toLowerCase());
  return word >= 0 ? word : Number(text.replaceAll(',', ''));
}

/** A sentence the page must still contain. */
function sentenceOf(page: string, pattern: RegExp): RegExpExecArray {
  const found = pattern.exec(read(page));
  if (!found) throw new Error(`${page} no longer says ${pattern}: state the number again, or move this test's pattern`);
  return found;
}

/** The groups of a sentence the page must still contain. */
const claim = (page: string, pattern: RegExp): string[] => sentenceOf(page, pattern).slice(1);

/**
 * A sentence of a page that states numbers of the template: each group, in order, must be
 * the number `expected` gives under its name. Soft, so one run names every sentence to change.
 */
function expectStated(page: string, pattern: RegExp, expected: Record<string, number>): void {
  const found = sentenceOf(page, pattern);
  const stated = Object.fromEntries(Object.keys(expected).map((name, i) => [name, numberOf(found[i + 1] as string)]));
  const sentence = found[0].replace(/\s+/g, ' ');
  expect.soft(stated, `${page} says "${sentence}": write the template's numbers there`).toEqual(expected);
}

/** Backticked names in a piece of text (`StreamRouter`, `ApiUrl`, …). */
const namesIn = (text: string) => [...text.matchAll(/`([A-Za-z][\w<>]*)`/g)].map((m) => m[1] as string);

describe('the numbers the docs state are the template’s', () => {
  it('operations.md: routes, consumers, dead-letter stores and alarms, in the sandbox and on real rails', () => {
    expectStated(
      'docs/operations.md',
      /With today's (\d+) routes, (\d+) consumers and (\d+) dead-letter stores that is (\d+) alarms[^;]*the (\w+) per stack\)/,
      {
        routes: facts.routes,
        consumers: facts.consumers,
        stores: facts.deadLetterStores,
        alarms: facts.alarms,
        stackAlarms: facts.stackAlarms,
      },
    );
    expectStated(
      'docs/operations.md',
      /on real rails `POST \/bank\/notices`\s+makes it (\d+) routes and (\d+) alarms/,
      {
        railsRoutes: railsFacts.routes,
        railsAlarms: railsFacts.alarms,
      },
    );
    expectStated('docs/operations.md', /\| dead-letter store \((\d+)\)\s*\|/, { stores: facts.deadLetterStores });
  });

  it('operations.md and decisions.md: the queues under the storage key and those under SQS’s own', () => {
    expect(numberOf(claim('docs/operations.md', /the (\w+) work queues, their dead-letter queues/)[0]!)).toBe(
      facts.workQueues,
    );
    expect(numberOf(claim('docs/operations.md', /(\w+) queues are not under the storage key/)[0]!)).toBe(
      facts.sseSqsQueues,
    );
    expect(numberOf(claim('docs/decisions.md', /SSE-SQS\s+only on the (\w+) schedule dead-letter queues/)[0]!)).toBe(
      facts.sseSqsQueues,
    );
  });

  it('operations.md: the redrive commands name every work queue', () => {
    const [example, list] = claim('docs/operations.md', /^QUEUE=(\w+)\s+# ([^\n]+)$/m);
    const named = list!.split(/, | or /).sort();
    expect(named).toEqual(facts.workQueueNames);
    expect(facts.workQueueNames).toContain(example);
  });

  it('deploy.md and decisions.md: the tenant roles and the resources they cost', () => {
    expectStated('docs/deploy.md', /The stack has one per such\s+function \((\d+) today\)/, {
      tenantRoles: facts.tenantRoles,
    });
    expectStated('docs/decisions.md', /The\s+cost is CloudFormation resources: (\d+) of (\d+) today/, {
      resources: facts.resources,
      limit: 500,
    });
    expectStated('docs/decisions.md', /would add three resources, not (\d+) \(a role and\s+its policy/, {
      tenantRoleResources: facts.tenantRoleResources,
    });
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
    for (const page of PAGES) {
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
