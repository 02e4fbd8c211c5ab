import type { Template } from 'aws-cdk-lib/assertions';
import {
  type BuildOptions,
  PLAID_CONTEXT,
  propsOf,
  RAILS_CONTEXT,
  refId,
  resourcesOf,
  synthTemplates,
} from '#test/infra/harness';

// What the README and docs/ say the stack holds (how many routes, consumers, dead-letter
// stores, alarms, tenant roles and resources; which queues, schedules, variables and
// outputs), read from the synthesized templates as an operator meets them (the stack's and
// its monitoring nested stack's, which holds the alarms), not from the rows
// that build it: `npm run docs:sync` writes the counts from these facts
// (./stack-counts.ts), and test/infra/docs-numbers.test.ts holds the names to them.

/**
 * What the docs count and name, from the stack's template and its monitoring nested
 * stack's (the alarms and the dashboard, lib/stack/monitoring.ts).
 */
export function templateFacts(template: Template, monitoring: Template) {
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
  const alarms = Object.keys(resourcesOf(monitoring, 'AWS::CloudWatch::Alarm')).length;
  const routes = Object.keys(resourcesOf(template, 'AWS::ApiGatewayV2::Route')).length;

  return {
    /** The stack's own resources, the monitoring nested stack being one of them. */
    resources: Object.keys(resources).length,
    /** The monitoring nested stack's resources (a stack of its own, with its own 500). */
    monitoringResources: Object.keys(monitoring.toJSON().Resources).length,
    /** The references to the stack's resources the nested stack takes as parameters (CloudFormation allows 200). */
    monitoringParameters: Object.keys(monitoring.toJSON().Parameters ?? {}).length,
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

export type TemplateFacts = ReturnType<typeof templateFacts>;

/** The stack's facts as the docs state them: by default (the sandbox), on real rails, with a real identity vendor, and with both. */
export interface StackFacts {
  readonly sandbox: TemplateFacts;
  readonly rails: TemplateFacts;
  readonly plaid: TemplateFacts;
  /** On real rails with a real identity vendor: the most a stack holds today. */
  readonly fullest: TemplateFacts;
}

/**
 * Synthesizes the four stacks in this process, offline, as the infra tests do (no `cdk`
 * call, no bundling), and reads their facts. A few seconds.
 */
export function stackFacts(): StackFacts {
  // The infra tests' reason too: aws-cdk-lib's WASM template validation adds seconds and checks nothing read here.
  process.env.CDK_VALIDATION = 'false';
  const facts = (options: BuildOptions = {}) => {
    const { template, monitoring } = synthTemplates(options);
    return templateFacts(template, monitoring);
  };
  return {
    sandbox: facts(),
    rails: facts({ context: RAILS_CONTEXT }),
    plaid: facts({ context: PLAID_CONTEXT }),
    fullest: facts({ context: { ...RAILS_CONTEXT, ...PLAID_CONTEXT } }),
  };
}
