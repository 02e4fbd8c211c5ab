import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Stack } from 'aws-cdk-lib';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { describe, expect, it } from 'vitest';
import { buildApp } from './harness';

/**
 * cdk-nag 3 runs as a validation plugin during synthesis. Its findings go to the cloud
 * assembly's `validation-report.json`; under vitest the app runs "in memory", so an
 * unacknowledged error also makes `app.synth()` throw with the report as the message.
 */
interface Report {
  pluginReports: {
    pluginName: string;
    conclusion: 'success' | 'failure';
    violations: { ruleName: string; severity: string; violatingConstructs: { constructPath: string }[] }[];
  }[];
}

const readReport = (directory: string): Report =>
  JSON.parse(readFileSync(join(directory, 'validation-report.json'), 'utf8')) as Report;

describe('cdk-nag AwsSolutions checks', () => {
  it('report no unacknowledged error for the stack as bin/app.ts builds it', () => {
    const { app } = buildApp({ nag: true });
    const assembly = app.synth();
    const nag = readReport(assembly.directory).pluginReports.filter((r) => r.pluginName === 'AwsSolutions');
    const errors = nag.flatMap((r) => r.violations.filter((v) => v.severity === 'error'));
    expect(errors).toEqual([]);
    expect(nag.every((r) => r.conclusion === 'success')).toBe(true);
  });

  it('report no unacknowledged error with an email sender configured either (SES grant on one identity)', () => {
    const { app } = buildApp({ nag: true, context: { emailSender: 'no-reply@example.com' } });
    const nag = readReport(app.synth().directory).pluginReports.filter((r) => r.pluginName === 'AwsSolutions');
    expect(nag.flatMap((r) => r.violations.filter((v) => v.severity === 'error'))).toEqual([]);
  });

  it('do run in this harness: an unacknowledged AWS managed policy fails synthesis', () => {
    const { app, stack } = buildApp({ nag: true });
    new Role(Stack.of(stack), 'ProbeRole', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole')],
    });
    expect(() => app.synth()).toThrow(/AwsSolutions-IAM4/);
  });

  it('do run on the monitoring nested stack too (the alarms and the dashboard, lib/stack/monitoring.ts)', () => {
    const { app, stack } = buildApp({ nag: true });
    new Role(stack.monitoring, 'ProbeRole', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole')],
    });
    expect(() => app.synth()).toThrow(/AwsSolutions-IAM4/);
  });
});
