import { withSpans } from '#test/support/doc-block';
import type { StackFacts } from './stack-facts';

// The counts of the stack the docs state inside sentences (routes, consumers, dead-letter
// stores, alarms, tenant roles, resources of the stack and of its monitoring nested stack,
// that nested stack's parameters, queues), each between `docs:sync` markers
// (`<!-- docs:sync routes -->24<!-- /docs:sync -->`, test/support/doc-block.ts):
// `npm run docs:sync` writes them from the synthesized templates (./stack-facts.ts), and
// test/infra/docs-numbers.test.ts fails, saying to run it, when a page holds another.
// A count a sentence writes as a word is given as one.

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

/** `5` → `five`, up to twelve; larger numbers in digits, as prose writes them. */
export const inWords = (n: number): string => WORDS[n] ?? n.toLocaleString('en');
const digits = (n: number): string => n.toLocaleString('en');

/** Each page's figures, by the name of the span that holds it. */
const COUNTS: Readonly<Record<string, Readonly<Record<string, (facts: StackFacts) => string>>>> = {
  'docs/operations.md': {
    routes: ({ sandbox }) => digits(sandbox.routes),
    consumers: ({ sandbox }) => digits(sandbox.consumers),
    'dead-letter-stores': ({ sandbox }) => digits(sandbox.deadLetterStores),
    alarms: ({ sandbox }) => digits(sandbox.alarms),
    'stack-alarms': ({ sandbox }) => inWords(sandbox.stackAlarms),
    'rails-routes': ({ rails }) => digits(rails.routes),
    'rails-alarms': ({ rails }) => digits(rails.alarms),
    'identity-vendor-alarms': ({ sandbox, plaid }) => inWords(plaid.alarms - sandbox.alarms),
    'work-queues': ({ sandbox }) => inWords(sandbox.workQueues),
    'sse-sqs-queues': ({ sandbox }) => inWords(sandbox.sseSqsQueues),
  },
  'docs/deploy.md': {
    'tenant-roles': ({ sandbox }) => digits(sandbox.tenantRoles),
    resources: ({ sandbox }) => digits(sandbox.resources),
    'fullest-resources': ({ fullest }) => digits(fullest.resources),
    'monitoring-resources': ({ sandbox }) => digits(sandbox.monitoringResources),
    'fullest-monitoring-resources': ({ fullest }) => digits(fullest.monitoringResources),
    'fullest-monitoring-parameters': ({ fullest }) => digits(fullest.monitoringParameters),
  },
  'docs/decisions.md': {
    resources: ({ sandbox }) => digits(sandbox.resources),
    'fullest-resources': ({ fullest }) => digits(fullest.resources),
    'monitoring-resources': ({ sandbox }) => digits(sandbox.monitoringResources),
    'fullest-monitoring-resources': ({ fullest }) => digits(fullest.monitoringResources),
    'monitoring-parameters': ({ sandbox }) => digits(sandbox.monitoringParameters),
    'fullest-monitoring-parameters': ({ fullest }) => digits(fullest.monitoringParameters),
    'tenant-role-resources': ({ sandbox }) => digits(sandbox.tenantRoleResources),
    'sse-sqs-queues': ({ sandbox }) => inWords(sandbox.sseSqsQueues),
  },
};

/** The figures `page` states, by span name, from `facts`: none for a page that states no count. */
export function stackCounts(page: string, facts: StackFacts): Record<string, string> {
  return Object.fromEntries(Object.entries(COUNTS[page] ?? {}).map(([name, figure]) => [name, figure(facts)]));
}

/**
 * `doc` (the text of `page`) with its counts written from `facts`. Throws when the page has a
 * span no count is given for, or lacks one it states (test/support/doc-block.ts).
 */
export const withStackCounts = (page: string, doc: string, facts: StackFacts): string =>
  withSpans(doc, page, stackCounts(page, facts));
