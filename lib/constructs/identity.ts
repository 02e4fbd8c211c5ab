import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import {
  AccountRecovery,
  Mfa,
  OAuthScope,
  ResourceServerScope,
  UserPool,
  type UserPoolClient,
  UserPoolClientIdentityProvider,
  type UserPoolDomain,
} from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import type { IdentityProps } from '#lib/context/identity';
import { OPERATOR_SCOPES, RESOURCE_SERVER_ID, SCOPES, SERVICE_SCOPES, type ServiceScope } from '#shared/scopes';
import type { TenantAlias } from './tenant-records';

/** What the HTTP API's JWT authorizer needs to know about the issuer. */
export interface JwtSettings {
  readonly issuer: string;
  readonly audience: readonly string[];
  /** Put in front of every route scope: Cognito writes `<resource server id>/<scope>`. */
  readonly scopePrefix: string;
}

/**
 * Who may call the API. By default a Cognito user pool that only issues
 * client-credentials tokens (no users, no self sign-up): one resource server declaring
 * every scope of the contract, one app client per partner with the scopes it bought, and
 * a domain for the token endpoint. With `externalIssuer` nothing is created and the
 * authorizer trusts that issuer instead.
 */
export class Identity extends Construct {
  readonly jwt: JwtSettings;
  readonly userPool?: UserPool;
  readonly domain?: UserPoolDomain;
  /** App clients by partner name (Cognito mode). */
  readonly clients: ReadonlyMap<string, UserPoolClient>;
  /** App clients by operator name (Cognito mode): each holds the operator scopes only. */
  readonly operatorClients: ReadonlyMap<string, UserPoolClient>;
  /**
   * Every client id of every partner with its tenant (the partner's name), for
   * `TenantRecords`: in Cognito mode each app client's id and the partner's `aliases`; with
   * an external issuer the partners' `clientIds` and `aliases`. An operator's client ids
   * likewise, to its own name, marked `operator` (the mark the review routes ask for).
   */
  readonly tenantAliases: readonly TenantAlias[];

  constructor(scope: Construct, id: string, props: IdentityProps = {}) {
    super(scope, id);
    if (props.externalIssuer) {
      const { issuer, audience, scopePrefix = '' } = props.externalIssuer;
      if (!/^https:\/\/\S+$/.test(issuer)) throw new Error(`jwtIssuer must be an https URL, got "${issuer}"`);
      if (audience.length === 0) throw new Error('jwtAudience needs at least one value when jwtIssuer is set');
      this.jwt = { issuer, audience: [...audience], scopePrefix };
      this.clients = new Map();
      this.operatorClients = new Map();
      // Partners without client ids are skipped: the context's default partner list is
      // for Cognito mode and names no client id; operators' client ids map to
      // their own names, which own no partner data.
      const aliasesOf = (person: { name: string; clientIds?: readonly string[]; aliases?: readonly string[] }) =>
        [...(person.clientIds ?? []), ...(person.aliases ?? [])].map((clientId) => ({ clientId, tenant: person.name }));
      this.tenantAliases = [
        ...(props.partners ?? []).flatMap(aliasesOf),
        ...(props.operators ?? []).flatMap(aliasesOf).map((alias) => ({ ...alias, operator: true })),
      ];
      return;
    }

    const partners = props.partners ?? [];
    const withClientIds = partners.find((partner) => partner.clientIds?.length);
    if (withClientIds) {
      throw new Error(
        `partner "${withClientIds.name}": clientIds is for an external issuer (jwtIssuer); Cognito assigns app client ids, list further ids as aliases`,
      );
    }
    if (partners.length === 0) {
      throw new Error('Cognito mode needs at least one partner: set the "partners" context, or jwtIssuer/jwtAudience');
    }
    const stack = Stack.of(this);
    this.userPool = new UserPool(this, 'UserPool', {
      selfSignUpEnabled: false,
      accountRecovery: AccountRecovery.NONE,
      // The pool holds no users. A strict password policy and required TOTP MFA cost
      // nothing and keep it safe should anyone ever add one.
      passwordPolicy: {
        minLength: 14,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
      },
      mfa: Mfa.REQUIRED,
      mfaSecondFactor: { otp: true, sms: false },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(this.userPool).acknowledge({
      id: 'AwsSolutions-COG8',
      reason:
        'The Plus plan adds threat protection for user sign-ins; this pool has no users and only issues machine-to-machine client-credentials tokens, which threat protection does not evaluate.',
    });

    // The partners' scopes and the operators': one resource server, so a token names both alike.
    const scopes = new Map(
      SERVICE_SCOPES.map((name) => [
        name,
        new ResourceServerScope({ scopeName: name, scopeDescription: `Verify service: ${name}` }),
      ]),
    );
    const resourceServer = this.userPool.addResourceServer('ResourceServer', {
      identifier: RESOURCE_SERVER_ID,
      scopes: [...scopes.values()],
    });
    const oauthScope = (name: ServiceScope) => {
      const scope = scopes.get(name);
      if (scope === undefined)
        throw new Error(`scope "${name}" is not among the service's: ${SERVICE_SCOPES.join(', ')}`);
      return OAuthScope.resourceServer(resourceServer, scope);
    };

    this.domain = this.userPool.addDomain('Domain', {
      cognitoDomain: { domainPrefix: props.domainPrefix ?? defaultDomainPrefix(stack) },
    });

    const clients = new Map<string, UserPoolClient>();
    const operatorClients = new Map<string, UserPoolClient>();
    const tenantAliases: TenantAlias[] = [];
    const pool = this.userPool;
    const addClient = (
      id: string,
      name: string,
      granted: readonly ServiceScope[],
      aliases: readonly string[] = [],
      operator = false,
    ) => {
      const client = pool.addClient(id, {
        userPoolClientName: name,
        generateSecret: true,
        oAuth: { flows: { clientCredentials: true }, scopes: granted.map(oauthScope) },
        supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
        accessTokenValidity: props.accessTokenValidity ?? Duration.hours(1),
        enableTokenRevocation: true,
        preventUserExistenceErrors: true,
      });
      tenantAliases.push(
        ...[client.userPoolClientId, ...aliases].map((clientId) => ({
          clientId,
          tenant: name,
          ...(operator && { operator: true }),
        })),
      );
      return client;
    };
    for (const partner of partners) {
      if (clients.has(partner.name)) throw new Error(`partner "${partner.name}" is listed twice`);
      // A partner holds the contract's scopes only (`Scope`), never an operator's.
      clients.set(
        partner.name,
        addClient(`Client-${partner.name}`, partner.name, partner.scopes ?? SCOPES, partner.aliases),
      );
    }
    for (const operator of props.operators ?? []) {
      if (clients.has(operator.name)) throw new Error(`operator "${operator.name}" is also a partner's name`);
      const client = addClient(`Operator-${operator.name}`, operator.name, OPERATOR_SCOPES, operator.aliases, true);
      operatorClients.set(operator.name, client);
    }
    this.clients = clients;
    this.operatorClients = operatorClients;
    this.tenantAliases = tenantAliases;
    this.jwt = {
      issuer: `https://cognito-idp.${stack.region}.amazonaws.com/${this.userPool.userPoolId}`,
      // Cognito access tokens carry no `aud`; API Gateway then matches `client_id`. Every
      // client id of a partner (or operator) is accepted: its app client's and its aliases.
      audience: this.tenantAliases.map((alias) => alias.clientId),
      scopePrefix: `${RESOURCE_SERVER_ID}/`,
    };
  }

  /** The OAuth token endpoint partners call (Cognito mode). */
  get tokenUrl(): string | undefined {
    return this.domain ? `${this.domain.baseUrl()}/oauth2/token` : undefined;
  }
}

/**
 * Unique per account, region and stack, so two stages fit in one account. Cognito
 * rejects prefixes containing "aws", "amazon" or "cognito".
 */
function defaultDomainPrefix(stack: Stack): string {
  const name = stack.stackName
    .toLowerCase()
    .replace(/aws|amazon|cognito/g, '')
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return `${name || 'verify'}-${stack.account}`;
}
