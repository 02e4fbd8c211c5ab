import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { VerifyServiceStack } from '#lib/stack';

// CDK app entry (cdk.json runs it with tsx). Context `stackName` (default
// `VerifyService`) names the stack, so a second stage in the same account is
// `npx cdk deploy -c stackName=VerifyService-staging`.

const app = new App();

// cdk-nag 3 is a validation plugin: its findings end up in the cloud assembly's
// validation report, and any unacknowledged error fails `cdk synth`.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));

const stackName: unknown = app.node.tryGetContext('stackName') ?? 'VerifyService';
if (typeof stackName !== 'string' || !/^[A-Za-z][A-Za-z0-9-]{0,127}$/.test(stackName)) {
  throw new Error('context "stackName" must start with a letter and hold only letters, digits and "-"');
}

new VerifyServiceStack(app, stackName, {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  description: 'Verify service: account verification API for partners',
});
