// What the context readers of lib/context/ share: an unset value, and an IAM role's ARN.

/** A key absent, or given empty (`-c key=`): the default applies. */
export const isUnset = (value: unknown): boolean => value === undefined || value === null || value === '';

/** One IAM role's ARN, with its path if any (IAM's characters for role names and paths): no pattern, no user, no session. */
const ROLE_ARN = /^arn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@/-]+$/;

/** The role ARN a key names, or an error naming the key and an example (`role/<exampleName>`). */
export function roleArnOf(key: string, value: unknown, exampleName: string): string {
  if (typeof value !== 'string' || !ROLE_ARN.test(value)) {
    throw new Error(
      `context "${key}" must be an IAM role's ARN such as arn:aws:iam::123456789012:role/${exampleName} (one role, no wildcard); got ${JSON.stringify(value)}`,
    );
  }
  return value;
}
