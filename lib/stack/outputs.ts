import { CfnOutput, type Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { AlarmTopic } from '#lib/constructs/alarms';
import type { BankSecrets } from '#lib/constructs/bank-secrets';
import type { HttpApi } from '#lib/constructs/http-api';
import type { Identity } from '#lib/constructs/identity';
import type { BankSettings } from '#lib/context/bank-provider';
import { isProviderSigned, type RouteDefinition } from '#lib/service/index';
import { TABLE_NAME_OUTPUT } from './deployed-table';

// The stack's outputs: what an operator needs after a deploy (the API's URL, the alarm
// topic, the issuer and the partners' client ids, and on real rails the bank's notice URL
// and the secrets to fill in; docs/deploy.md).

/** What the outputs are read from. */
export interface StackOutputsProps {
  readonly httpApi: HttpApi;
  /** The data table: its name is what the operator commands write (`lists:load`, `persons:reindex`). */
  readonly table: ITable;
  readonly alarms: AlarmTopic;
  readonly identity: Identity;
  /** The deployed routes: the provider's notice route, on real rails, has a URL to register. */
  readonly routes: readonly RouteDefinition[];
  /** The bank's provider, named in the outputs of its secrets. */
  readonly bankProvider: BankSettings['provider'];
  /** The provider's API key and webhook secret, on real rails only. */
  readonly bankSecrets?: BankSecrets;
}

/** Adds the stack's outputs, each under the construct id that names it. */
export function addStackOutputs(stack: Stack, props: StackOutputsProps): void {
  const { httpApi, alarms, identity, routes, bankSecrets } = props;
  new CfnOutput(stack, 'ApiUrl', { value: httpApi.url, description: 'Base URL of the HTTP API' });
  new CfnOutput(stack, TABLE_NAME_OUTPUT, {
    value: props.table.tableName,
    description: 'The data table: npm run lists:load and persons:reindex find it by the stack name (--stack)',
  });
  new CfnOutput(stack, 'AlarmTopicArn', {
    value: alarms.topic.topicArn,
    description:
      'SNS topic of every alarm (dead letters, function errors and throttles, stream lag, API 5xx, webhook failures): subscribe to it',
  });
  const noticeRoute = routes.find(isProviderSigned);
  if (noticeRoute && bankSecrets) {
    new CfnOutput(stack, 'BankNoticeUrl', {
      value: `${httpApi.url}${noticeRoute.path.slice(1)}`,
      description: `Register this URL as the ${props.bankProvider} webhook endpoint (docs/deploy.md#real-rails-increase)`,
    });
    new CfnOutput(stack, 'BankApiKeySecretArn', {
      value: bankSecrets.apiKey.secretArn,
      description: `Set the ${props.bankProvider} API key here: aws secretsmanager put-secret-value`,
    });
    new CfnOutput(stack, 'BankWebhookSecretArn', {
      value: bankSecrets.webhookSecret.secretArn,
      description: `Set the ${props.bankProvider} webhook secret here: aws secretsmanager put-secret-value`,
    });
  }
  new CfnOutput(stack, 'JwtIssuer', { value: identity.jwt.issuer, description: 'Issuer the API trusts' });
  if (identity.tokenUrl) {
    new CfnOutput(stack, 'TokenUrl', {
      value: identity.tokenUrl,
      description: 'OAuth token endpoint (client-credentials grant)',
    });
  }
  if (identity.userPool) {
    new CfnOutput(stack, 'UserPoolId', { value: identity.userPool.userPoolId });
  }
  for (const [name, client] of identity.clients) {
    new CfnOutput(stack, `ClientId${name.replace(/[^A-Za-z0-9]/g, '')}`, {
      value: client.userPoolClientId,
      description: `App client id of partner "${name}" (secret: aws cognito-idp describe-user-pool-client)`,
    });
  }
  for (const [name, client] of identity.operatorClients) {
    new CfnOutput(stack, `OperatorClientId${name.replace(/[^A-Za-z0-9]/g, '')}`, {
      value: client.userPoolClientId,
      description: `App client id of operator "${name}": review:screening only (secret: aws cognito-idp describe-user-pool-client)`,
    });
  }
}
