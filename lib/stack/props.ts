import type { StackProps } from 'aws-cdk-lib';
import type { EmailSenderSettings } from '#lib/constructs/email-sender';
import type { HttpApiProps } from '#lib/constructs/http-api';
import type { RequestLimit } from '#lib/context/api-limits';
import type { BankSettings } from '#lib/context/bank-provider';
import type { IdentificationSettings } from '#lib/context/identification';
import type { IdentityProps } from '#lib/context/identity';
import type { IdentityVendorSettings } from '#lib/context/identity-vendor';
import type { ScreeningListsSettings } from '#lib/context/screening-lists';
import type { ConsumerDefinition, QueueSettings, RouteDefinition } from '#lib/service/index';
import type { QueueId } from '#shared/queue/message-queue';

// What VerifyServiceStack (lib/stack.ts) may be given; each setting left out is read from
// the CDK context or taken from lib/service/.

export interface VerifyServiceStackProps extends StackProps {
  /**
   * Who may call the API.
   * @default - read from CDK context (`partners`, `jwtIssuer`, `jwtAudience`,
   * `jwtScopePrefix`, `cognitoDomainPrefix`); see docs/deploy.md#context-keys
   */
  readonly identity?: IdentityProps;
  /**
   * The route table: one Lambda function and one API route per route, local-only routes
   * excepted (`deployedRoutes`).
   * @default - `servedRoutes` of the bank: ROUTES from lib/service/, and on real rails the
   * provider's notice routes (NOTICE_ROUTES)
   */
  readonly routes?: readonly RouteDefinition[];
  /**
   * Default-stage throttling of the HTTP API (all tenants together).
   * @default - read from CDK context (`apiThrottleRate`, `apiThrottleBurst`), else 50 requests/s, burst 100
   */
  readonly throttle?: Pick<HttpApiProps, 'throttleRateLimit' | 'throttleBurstLimit'>;
  /**
   * Each tenant's request rate and burst when its settings name none
   * (`TENANT_RATE_PER_SECOND`, `TENANT_BURST` on every API function).
   * @default - read from CDK context (`tenantRatePerSecond`, `tenantBurst`), else 50 requests/s, burst 100
   */
  readonly tenantLimit?: RequestLimit;
  /**
   * The asynchronous consumers, one Lambda function each.
   * @default CONSUMERS from lib/service/
   */
  readonly consumers?: readonly ConsumerDefinition[];
  /**
   * The work queues, one SQS queue (with its dead-letter queue) each.
   * @default QUEUE_SETTINGS from lib/service/
   */
  readonly queueSettings?: Readonly<Record<QueueId, QueueSettings>>;
  /**
   * Sender of account-holder emails; `null` for none.
   * @default - read from CDK context (`emailSender`, `emailIdentityArn`); none without it
   */
  readonly emailSender?: EmailSenderSettings | null;
  /**
   * Deployment-wide identification settings: the KYC mode of tenants without their own
   * (partners' `kycMode`) and the delay of the automatic identification retry.
   * @default - read from CDK context (`kycMode`, `identificationRetryDelaySeconds`); see
   * docs/deploy.md#context-keys
   */
  readonly identification?: IdentificationSettings;
  /**
   * Where the daily refresh downloads OFAC's lists, and how much one refresh may take off.
   * @default - read from CDK context (`screeningListsUrl`, `screeningListsMaxDropPercent`),
   * else OFAC's Sanctions List Service and 5 %; see docs/deploy.md#context-keys
   */
  readonly screeningLists?: ScreeningListsSettings;
  /**
   * The bank the rows with `bank` call: the sandbox bank, or a provider on real rails,
   * whose two secrets the stack then creates in Secrets Manager.
   * @default - read from CDK context (`bankProvider`, `increaseAccountId`,
   * `increaseEnvironment`), else the sandbox bank; see docs/deploy.md#real-rails-increase
   */
  readonly bank?: BankSettings;
  /**
   * The identity vendor IdentificationWorker calls for Service-KYC persons: the sandbox
   * vendor, or Plaid, whose secret the stack then creates in Secrets Manager.
   * @default - read from CDK context (`identityVendor`, `plaidClientId`, `plaidTemplateId`,
   * `plaidEnvironment`), else the sandbox vendor; see docs/deploy.md#identity-vendor-plaid
   */
  readonly identityVendor?: IdentityVendorSettings;
}
