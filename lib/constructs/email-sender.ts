import { ArnFormat, Stack } from 'aws-cdk-lib';
import type { Construct } from 'constructs';

/** The CDK context keys that configure account-holder emails (docs/deploy.md#context-keys). */
export const EMAIL_CONTEXT = {
  sender: 'emailSender',
  identityArn: 'emailIdentityArn',
} as const;

/** Who sends account-holder emails: an address and the SES identity that covers it. */
export interface EmailSenderSettings {
  /** `From` address, e.g. `no-reply@example.com`. */
  readonly address: string;
  /** ARN of the verified SES identity (domain or address) the sending is authorised on. */
  readonly identityArn: string;
}

const ADDRESS = /^[^\s@<>"]+@((?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63})$/;
const IDENTITY_ARN = /^arn:aws[a-z-]*:ses:[a-z0-9-]+:\d{12}:identity\/\S+$/;

/**
 * Reads `emailSender` (and optional `emailIdentityArn`). Without `emailSender` there is no
 * sender: functions then get neither the SES permission nor `EMAIL_SENDER`, and skip
 * emails. Without `emailIdentityArn` the identity is the sender's domain in the stack's
 * account and region (`arn:…:ses:<region>:<account>:identity/<domain>`).
 */
export function emailSenderFromContext(scope: Construct): EmailSenderSettings | undefined {
  const sender = optionalString(scope.node.tryGetContext(EMAIL_CONTEXT.sender), EMAIL_CONTEXT.sender);
  const identityArn = optionalString(scope.node.tryGetContext(EMAIL_CONTEXT.identityArn), EMAIL_CONTEXT.identityArn);
  if (sender === undefined) {
    if (identityArn !== undefined)
      throw new Error(`context "${EMAIL_CONTEXT.identityArn}" needs "${EMAIL_CONTEXT.sender}"`);
    return undefined;
  }
  if (!ADDRESS.test(sender))
    throw new Error(`context "${EMAIL_CONTEXT.sender}" must be an email address, got "${sender}"`);
  if (identityArn !== undefined && !IDENTITY_ARN.test(identityArn)) {
    throw new Error(
      `context "${EMAIL_CONTEXT.identityArn}" must be an SES identity ARN (arn:aws:ses:<region>:<account>:identity/<name>)`,
    );
  }
  return {
    address: sender,
    identityArn:
      identityArn ??
      Stack.of(scope).formatArn({
        service: 'ses',
        resource: 'identity',
        resourceName: domainOf(sender).toLowerCase(),
        arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
      }),
  };
}

/** The domain of an address that matched ADDRESS, whose local part has no `@`. */
const domainOf = (address: string): string => address.slice(address.lastIndexOf('@') + 1);

function optionalString(value: unknown, key: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new Error(`context "${key}" must be a string`);
  return value.trim();
}
