import type { AssumeTenantRole, SessionCredentials } from './credentials';
import { TENANT_SESSION_TAG } from './session-tag';
import type { STSClient } from './sts-client';

/**
 * The session's length. A Lambda function's role assuming another role is role chaining,
 * which AWS caps at one hour.
 */
const SESSION_SECONDS = 3600;

let sts: Promise<STSClient> | undefined;

/**
 * STS's client, loaded on the first assumption rather than at the container's start: a
 * container that serves no tenant's request (a health of the list positions, a refused
 * token) never pays for it. It signs with the function's own credentials and calls the
 * region's endpoint (`AWS_ENDPOINT_URL_STS` elsewhere: the local runtime's stand-in).
 */
const client = (): Promise<STSClient> => (sts ??= import('./sts-client').then(({ STSClient }) => new STSClient({})));

/**
 * Forgets the client, so that the next assumption makes one from the environment as it is
 * then. The SDK reads the endpoint once, when a client is made: the local runtime, which
 * starts its STS stand-in on a new port each time (tests start several in one process),
 * calls this as it points the handlers at it (lib/local/handler-environment.ts).
 */
export const forgetStsClient = (): void => {
  sts = undefined;
};

/**
 * AssumeRole of the tenant role with the session tag `tenant`, which its policy names every
 * key by (`${aws:PrincipalTag/tenant}`). The session's name says whose it is in CloudTrail.
 */
export const assumeWithSts: AssumeTenantRole = async (roleArn, tenant) => {
  const { AssumeRoleCommand } = await import('./sts-client');
  const out = await (await client()).send(
    new AssumeRoleCommand({
      RoleArn: roleArn,
      RoleSessionName: sessionName(tenant),
      DurationSeconds: SESSION_SECONDS,
      Tags: [{ Key: TENANT_SESSION_TAG, Value: tenant }],
    }),
  );
  const credentials = out.Credentials;
  if (!credentials?.AccessKeyId || !credentials.SecretAccessKey || !credentials.Expiration) {
    throw new Error(`AssumeRole of ${roleArn} answered no credentials`);
  }
  return {
    accessKeyId: credentials.AccessKeyId,
    secretAccessKey: credentials.SecretAccessKey,
    sessionToken: credentials.SessionToken,
    expiration: credentials.Expiration,
  } satisfies SessionCredentials;
};

/** `tenant-<tenant>`, within STS's 64 characters of `[\w+=,.@-]`. */
const sessionName = (tenant: string): string => `tenant-${tenant.replace(/[^\w+=,.@-]/g, '_')}`.slice(0, 64);
