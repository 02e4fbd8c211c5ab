import { type Duration, Validations } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { ENV } from '#shared/config';

/**
 * ESM bundles have no `require`; a few CommonJS dependencies inside the bundled AWS SDK
 * still call it, so the bundle defines one from `import.meta.url`.
 */
const ESM_REQUIRE_BANNER =
  "import { createRequire as __cdkCreateRequire } from 'node:module'; const require = __cdkCreateRequire(import.meta.url);";

export interface ServiceFunctionProps {
  /** Absolute path of the handler module; it exports `handler`. */
  readonly entry: string;
  /** How long one invocation may run. */
  readonly timeout: Duration;
  /**
   * Shown in the Lambda console, e.g. the route key or the consumer it serves.
   * @default - no description
   */
  readonly description?: string;
  /**
   * Memory, which also buys CPU: 512 MB keeps cold starts of a ~0.5 MB bundle short.
   * @default 512
   */
  readonly memorySize?: number;
  /**
   * How long the function's log group keeps entries.
   * @default RetentionDays.ONE_MONTH
   */
  readonly logRetention?: RetentionDays;
  /**
   * Minimum level the handler logs (`LOG_LEVEL`).
   * @default 'info'
   */
  readonly logLevel?: 'debug' | 'info' | 'warn' | 'error';
}

/**
 * A `NodejsFunction` with the house defaults, shared by the API functions (`ApiFunction`)
 * and the pipeline's consumers (`ConsumerFunction`): Node.js 24 on ARM64, X-Ray tracing,
 * an explicit log group with retention, a minified ESM bundle with source maps that
 * includes the AWS SDK (so the code runs against the SDK version it was tested with and
 * cold starts skip resolving the runtime's copy), and a role of its own that can only
 * write to its own log group. Table, key, queue and email access are added by the
 * `bind*` helpers, never here.
 */
export class ServiceFunction extends Construct {
  readonly function: NodejsFunction;
  readonly logGroup: LogGroup;
  readonly role: Role;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    this.logGroup = new LogGroup(this, 'LogGroup', {
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
    });
    // Our own role instead of the default one: the default attaches the AWS managed
    // AWSLambdaBasicExecutionRole, which may write to every log group in the account.
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of ${this.node.path}`,
    });
    this.logGroup.grantWrite(this.role);

    this.function = new NodejsFunction(this, 'Function', {
      entry: props.entry,
      handler: 'handler',
      description: props.description,
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout,
      tracing: Tracing.ACTIVE,
      role: this.role,
      logGroup: this.logGroup,
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        [ENV.logLevel]: props.logLevel ?? 'info',
      },
      bundling: {
        format: OutputFormat.ESM,
        target: 'node24',
        mainFields: ['module', 'main'],
        banner: ESM_REQUIRE_BANNER,
        minify: true,
        sourceMap: true,
        bundleAwsSDK: true,
        externalModules: [],
      },
    });

    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Active tracing needs xray:PutTraceSegments and xray:PutTelemetryRecords, which support no resource-level permissions; no other statement of this role uses "*" (asserted in test/infra).',
    });
  }
}
