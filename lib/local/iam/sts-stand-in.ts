import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type PolicyStatementJson, TENANT_SESSION_TAG } from '#lib/service/tenant-access';
import { LOCAL_ACCOUNT_ID } from '../aws-account';
import { accessKeyIdOf, closeServer, listenOnLoopback, readBody } from '../loopback-server';

// A stand-in for STS's AssumeRole on loopback, speaking STS's Query protocol, so that the
// handlers' real STS client (functions/shared/db/tenant-access/sts.ts, pointed here by
// AWS_ENDPOINT_URL_STS) gets tenant credentials locally as it does in AWS. It trusts what
// the stack's tenant roles trust (lib/constructs/tenant-role.ts): exactly one session tag,
// `tenant`, not empty; and it keeps each session it issued, so that the IAM proxy
// (./dynamodb-iam-proxy.ts) can tell whose a signed request is and what its role allows.

/** A session the stand-in issued: what its access key id stands for. */
export interface StandInSession {
  readonly accessKeyId: string;
  readonly sessionToken: string;
  readonly roleArn: string;
  /** The role's name: the last part of its ARN (`local-tenant/GetPerson` → `GetPerson`). */
  readonly roleName: string;
  /** `arn:aws:sts::<account>:assumed-role/<role name>/<session name>`: the principal IAM's messages name. */
  readonly assumedRoleArn: string;
  /** The session's tags, e.g. `{ tenant: 'acme' }`. */
  readonly tags: Readonly<Record<string, string>>;
  /** The role's policy statements, as registered. */
  readonly statements: readonly PolicyStatementJson[];
  readonly expiration: Date;
}

/** The stand-in's clock, and whom it tells of each session. */
export interface StsStandInOptions {
  /** The clock sessions start and lapse by (tests move it). Default `Date.now`. */
  readonly now?: () => number;
  /** Told of each session issued. */
  readonly onAssumed?: (session: StandInSession) => void;
}

/** The running stand-in. */
export interface StsStandIn {
  /** Where the handlers' STS client is pointed (`AWS_ENDPOINT_URL_STS`). */
  readonly endpoint: string;
  /** Makes a role assumable, with its policy's statements. */
  register(roleArn: string, statements: readonly PolicyStatementJson[]): void;
  /** The session an access key id stands for, expired or not; undefined for a key the stand-in never issued. */
  session(accessKeyId: string): StandInSession | undefined;
  stop(): Promise<void>;
}

/** The access key id of every session the stand-in issues starts so, as AWS's temporary keys do. */
export const SESSION_KEY_PREFIX = 'ASIA';
/** A Lambda function's role assuming another is role chaining: STS caps the session at one hour. */
const MAX_CHAINED_SECONDS = 3600;
const MIN_SECONDS = 900;
/** Expired sessions are kept this long, so that their keys still answer ExpiredToken, not an unknown key. */
const KEEP_EXPIRED_MS = 60 * 60_000;
const STS_NAMESPACE = 'https://sts.amazonaws.com/doc/2011-06-15/';

/** An STS error: its HTTP status, `Type`, `Code` and message. */
class StsError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Starts the stand-in on a free loopback port. */
export async function startStsStandIn(options: StsStandInOptions = {}): Promise<StsStandIn> {
  const now = options.now ?? Date.now;
  const roles = new Map<string, readonly PolicyStatementJson[]>();
  const sessions = new Map<string, StandInSession>();

  const assumeRole = (params: URLSearchParams, caller: string): StandInSession => {
    const roleArn = params.get('RoleArn') ?? '';
    const refuse = (action: string, reason: string) =>
      new StsError(
        403,
        'AccessDenied',
        `User: arn:aws:iam::${LOCAL_ACCOUNT_ID}:user/${caller} is not authorized to perform: ${action} on resource: ${roleArn} (local STS stand-in: ${reason})`,
      );
    if (sessions.has(caller))
      throw refuse('sts:AssumeRole', 'a tenant role trusts its function’s own role, not a session');
    const statements = roles.get(roleArn);
    if (!statements) throw refuse('sts:AssumeRole', 'no such role is registered');
    const tags = sessionTags(params);
    const keys = Object.keys(tags);
    if (keys.some((key) => key !== TENANT_SESSION_TAG)) {
      throw refuse('sts:TagSession', `the only session tag allowed is ${TENANT_SESSION_TAG}, not ${keys.join(', ')}`);
    }
    if (!tags[TENANT_SESSION_TAG]) {
      throw refuse('sts:AssumeRole', `the session tag ${TENANT_SESSION_TAG} must be set and not empty`);
    }
    const sessionName = params.get('RoleSessionName') ?? '';
    if (!/^[\w+=,.@-]{2,64}$/.test(sessionName)) {
      throw new StsError(400, 'ValidationError', `RoleSessionName must be 2–64 of [\\w+=,.@-], not "${sessionName}"`);
    }
    for (const name of params.keys()) {
      if (name === 'Policy' || name.startsWith('PolicyArns.') || name.startsWith('TransitiveTagKeys.')) {
        // Each would change what the session may do; ignoring it would allow more than AWS.
        throw new StsError(400, 'ValidationError', `${name}: the local STS stand-in does not model it`);
      }
    }
    const roleName = roleArn.split('/').at(-1) as string;
    const session: StandInSession = {
      accessKeyId: `${SESSION_KEY_PREFIX}${base32(randomBytes(16))}`,
      sessionToken: randomBytes(96).toString('base64'),
      roleArn,
      roleName,
      assumedRoleArn: `arn:aws:sts::${LOCAL_ACCOUNT_ID}:assumed-role/${roleName}/${sessionName}`,
      tags,
      statements,
      // Whole seconds, as STS answers it: the proxy and the SDK then agree on when it lapses.
      expiration: new Date(Math.floor(now() / 1000) * 1000 + durationSeconds(params.get('DurationSeconds')) * 1000),
    };
    forgetLongExpired();
    sessions.set(session.accessKeyId, session);
    options.onAssumed?.(session);
    return session;
  };

  const forgetLongExpired = () => {
    for (const [key, session] of sessions) {
      if (session.expiration.getTime() + KEEP_EXPIRED_MS < now()) sessions.delete(key);
    }
  };

  const server = createServer((request, response) => {
    void answer(request, response).catch((error: unknown) => {
      const stsError = error instanceof StsError ? error : new StsError(400, 'InvalidRequest', String(error));
      writeXml(response, stsError.status, errorXml(stsError));
    });
  });
  const answer = async (request: IncomingMessage, response: ServerResponse) => {
    const body = (await readBody(request, 64 * 1024)).toString('utf8');
    const params = new URLSearchParams(
      request.method === 'POST' ? body : new URL(request.url ?? '/', 'http://x').search,
    );
    if (params.get('Action') !== 'AssumeRole' || params.get('Version') !== '2011-06-15') {
      throw new StsError(
        400,
        'InvalidAction',
        `Could not find operation ${params.get('Action')} for version ${params.get('Version')}`,
      );
    }
    const caller = accessKeyIdOf(request);
    if (!caller) throw new StsError(403, 'MissingAuthenticationToken', 'Request is missing Authentication Token');
    const session = assumeRole(params, caller);
    // The secret is handed out and forgotten: the proxy reads the key id, it checks no signature.
    writeXml(response, 200, assumeRoleXml(session, randomBytes(30).toString('base64')));
  };

  const endpoint = await listenOnLoopback(server);
  return {
    endpoint,
    register: (roleArn, statements) => roles.set(roleArn, statements),
    session: (accessKeyId) => sessions.get(accessKeyId),
    stop: () => closeServer(server),
  };
}

/** `Tags.member.<n>.Key` / `.Value` as one record. */
function sessionTags(params: URLSearchParams): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const [name, key] of params) {
    const member = /^Tags\.member\.(\d+)\.Key$/.exec(name)?.[1];
    if (member !== undefined) tags[key] = params.get(`Tags.member.${member}.Value`) ?? '';
  }
  return tags;
}

function durationSeconds(raw: string | null): number {
  const seconds = raw === null ? MAX_CHAINED_SECONDS : Number(raw);
  if (!Number.isInteger(seconds) || seconds < MIN_SECONDS) {
    throw new StsError(400, 'ValidationError', `DurationSeconds must be a whole number of at least ${MIN_SECONDS}`);
  }
  if (seconds > MAX_CHAINED_SECONDS) {
    throw new StsError(
      400,
      'ValidationError',
      'The requested DurationSeconds exceeds the 1 hour session limit for roles assumed by role chaining.',
    );
  }
  return seconds;
}

/** One character per byte, of upper-case letters and digits 2–7, as AWS's key and role ids are. */
const base32 = (bytes: Uint8Array): string =>
  [...bytes].map((byte) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'[byte % 32]).join('');

/** The role's unique id (`AROA…`), the same for every session of it. */
const roleId = (roleArn: string): string =>
  `AROA${base32(createHash('sha256').update(roleArn).digest().subarray(0, 17))}`;

const xmlText = (value: string): string =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** STS's own ISO form, without milliseconds. */
const isoSeconds = (date: Date): string => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

function assumeRoleXml(session: StandInSession, secretAccessKey: string): string {
  const sessionName = session.assumedRoleArn.split('/').at(-1) as string;
  return `<AssumeRoleResponse xmlns="${STS_NAMESPACE}">
  <AssumeRoleResult>
    <AssumedRoleUser>
      <Arn>${xmlText(session.assumedRoleArn)}</Arn>
      <AssumedRoleId>${roleId(session.roleArn)}:${xmlText(sessionName)}</AssumedRoleId>
    </AssumedRoleUser>
    <Credentials>
      <AccessKeyId>${session.accessKeyId}</AccessKeyId>
      <SecretAccessKey>${xmlText(secretAccessKey)}</SecretAccessKey>
      <SessionToken>${xmlText(session.sessionToken)}</SessionToken>
      <Expiration>${isoSeconds(session.expiration)}</Expiration>
    </Credentials>
    <PackedPolicySize>1</PackedPolicySize>
  </AssumeRoleResult>
  <ResponseMetadata>
    <RequestId>${randomUUID()}</RequestId>
  </ResponseMetadata>
</AssumeRoleResponse>
`;
}

const errorXml = (error: StsError): string => `<ErrorResponse xmlns="${STS_NAMESPACE}">
  <Error>
    <Type>${error.status < 500 ? 'Sender' : 'Receiver'}</Type>
    <Code>${error.code}</Code>
    <Message>${xmlText(error.message)}</Message>
  </Error>
  <RequestId>${randomUUID()}</RequestId>
</ErrorResponse>
`;

function writeXml(response: ServerResponse, status: number, xml: string): void {
  response.writeHead(status, {
    'content-type': 'text/xml',
    'content-length': Buffer.byteLength(xml),
    'x-amzn-requestid': randomUUID(),
  });
  response.end(xml);
}
