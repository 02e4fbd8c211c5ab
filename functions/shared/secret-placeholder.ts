/**
 * The key of the placeholder the stack generates in a provider's secret (the bank's, the
 * identity vendor's: lib/constructs/provider-secrets.ts): a secret whose JSON value has it
 * was never set by the operator. Apart from the code that reads secrets, so the stack and
 * the sandbox's bundles name it without the Secrets Manager client.
 */
export const PLACEHOLDER_MARK = 'unset';
