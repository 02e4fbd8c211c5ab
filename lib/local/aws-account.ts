// The AWS account and region the local runtime plays: what ARNs, event sources and
// Lambda contexts name, and the credentials its SDK clients sign with. DynamoDB Local
// accepts any credentials; the SDK only needs some to sign with.

export const LOCAL_ACCOUNT_ID = '123456789012';
export const LOCAL_REGION = 'us-east-1';

/** What a handler's SDK client finds in its environment, pointed at nothing real. */
export const LOCAL_AWS_ENV = {
  AWS_REGION: LOCAL_REGION,
  AWS_ACCESS_KEY_ID: 'local',
  AWS_SECRET_ACCESS_KEY: 'local',
} as const;

/** The same credentials, for the runtime's own clients. */
export const LOCAL_CREDENTIALS = {
  accessKeyId: LOCAL_AWS_ENV.AWS_ACCESS_KEY_ID,
  secretAccessKey: LOCAL_AWS_ENV.AWS_SECRET_ACCESS_KEY,
} as const;

/** The ARN of a table of the local account, as IAM names it in policies and in AccessDenied messages. */
export const localTableArn = (tableName: string): string =>
  `arn:aws:dynamodb:${LOCAL_REGION}:${LOCAL_ACCOUNT_ID}:table/${tableName}`;
