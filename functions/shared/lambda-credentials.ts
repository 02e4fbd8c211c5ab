import { fromEnv } from '@aws-sdk/credential-provider-env';

/**
 * What the bundles get instead of `@aws-sdk/credential-provider-node` (the SDK's default
 * credential chain), through an esbuild alias in ServiceFunction's bundling: in Lambda the
 * execution role's credentials are always in the environment (AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN: Lambda's defined runtime environment
 * variables), the chain's first link, so SSO, INI, process, web identity, the container
 * and instance metadata providers and the STS/SSO clients behind them (~135 KB of every
 * bundle) never run there. Same export and signature as the package's, so every client's
 * runtime config takes it unchanged. The local runtime and the tests run from source with
 * the real chain.
 */
export const defaultProvider = (init: Parameters<typeof fromEnv>[0] = {}) => fromEnv(init);
