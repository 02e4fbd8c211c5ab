import { describe, expect, it } from 'vitest';
import { consumerDescription } from '#lib/constructs/consumer-function';
import { CONSUMERS, deployedRoutes, NOTICE_ROUTES, ROUTES, routeKey, servedRoutes } from '#lib/service/index';
import { ENV as CONFIG_ENV } from '#shared/config';
import {
  actionsOf,
  type BuildOptions,
  buildApp,
  functionsOf,
  kmsKeyIds,
  propsOf,
  refId,
  resourcesOf,
  synthTemplate,
} from './harness';

const INCREASE = { bankProvider: 'increase', increaseAccountId: 'account_in71c4amph0vgo2qllky' };

/** The description of each function whose row says it calls the bank. */
const bankRowsDeployed = (routes = deployedRoutes(ROUTES)) =>
  [...routes.filter((r) => r.bank).map(routeKey), ...CONSUMERS.filter((c) => c.bank).map(consumerDescription)].sort();

const consumer = (id: string) => consumerDescription(CONSUMERS.find((c) => c.id === id)!);
/** The row of a function, by its description (a route's key, a consumer's `<id>: <source>`). */
const rowIdOf = (description: string) =>
  [...NOTICE_ROUTES, ...ROUTES].find((r) => routeKey(r) === description)?.id ?? description.split(':')[0]!;
/** The variable each secret's ARN reaches a function in. */
const SECRET_ARN_VARIABLE = {
  apiKey: CONFIG_ENV.bankApiKeySecretArn,
  webhookSecret: CONFIG_ENV.bankWebhookSecretArn,
} as const;
const secretActions = (statements: ReturnType<typeof functionsOf>['functions'][number]['statements']) =>
  actionsOf(statements).filter((action) => action.startsWith('secretsmanager:'));

/** Each row that calls the bank, by id: the provider's secrets it reads on rails (its `bank.secrets`). */
const secretsReadByRow = (): Record<string, string[]> =>
  Object.fromEntries(
    [...ROUTES, ...NOTICE_ROUTES, ...CONSUMERS].flatMap((row) =>
      row.bank ? [[row.id, [...row.bank.secrets].sort()]] : [],
    ),
  );

describe('the rows that call the bank', () => {
  it('are the verification worker and the hourly return windows (and, on rails, the notice route)', () => {
    expect(
      CONSUMERS.filter((c) => c.bank)
        .map((c) => c.id)
        .sort(),
    ).toEqual(['BankReturnWindows', 'VerificationWorker']);
  });

  it('each name the secrets they read: the API key all of them, the webhook secret only the notice route, which checks each notice’s signature', () => {
    expect(secretsReadByRow()).toEqual({
      VerificationWorker: ['apiKey'],
      BankReturnWindows: ['apiKey'],
      BankNotice: ['apiKey', 'webhookSecret'],
    });
  });
});

describe('the default bank (sandbox)', () => {
  const { template, functions } = functionsOf({});

  it('creates no secret', () => {
    expect(resourcesOf(template, 'AWS::SecretsManager::Secret')).toEqual({});
  });

  it('gives BANK_PROVIDER=sandbox to exactly the functions whose row calls the bank, and no provider setting to any', () => {
    const withProvider = functions.filter((f) => f.variables[CONFIG_ENV.bankProvider] !== undefined);
    expect(withProvider.map((f) => f.description).sort()).toEqual(bankRowsDeployed());
    expect(withProvider.map((f) => f.variables[CONFIG_ENV.bankProvider])).toEqual(withProvider.map(() => 'sandbox'));
    for (const f of functions) {
      for (const name of [
        CONFIG_ENV.increaseAccountId,
        CONFIG_ENV.increaseEnvironment,
        CONFIG_ENV.bankStatementName,
        CONFIG_ENV.bankApiKeySecretArn,
        CONFIG_ENV.bankWebhookSecretArn,
      ]) {
        expect(f.variables[name], `${f.description} ${name}`).toBeUndefined();
      }
    }
  });

  it('grants no function any Secrets Manager action', () => {
    expect(functions.flatMap((f) => secretActions(f.statements))).toEqual([]);
  });

  it('has no secret resource policy either', () => {
    expect(resourcesOf(template, 'AWS::SecretsManager::ResourcePolicy')).toEqual({});
  });
});

describe('-c bankProvider=increase', () => {
  const { template, functions } = functionsOf({ context: INCREASE });
  const secrets = resourcesOf(template, 'AWS::SecretsManager::Secret');
  const secretIds = Object.keys(secrets).sort();
  const bankFunctions = functions.filter((f) => f.variables[CONFIG_ENV.bankProvider] !== undefined);
  // Which secret is which: the outputs that tell the operator what to set name them.
  const outputs = template.findOutputs('*');
  const secretIdOf = {
    apiKey: refId(outputs.BankApiKeySecretArn?.Value),
    webhookSecret: refId(outputs.BankWebhookSecretArn?.Value),
  };

  it('tells the two secrets apart by their outputs', () => {
    expect(Object.values(secretIdOf).sort()).toEqual(secretIds);
  });

  it('creates the API key and the webhook secret in Secrets Manager, retained, holding a placeholder the operator replaces', () => {
    expect(secretIds).toHaveLength(2);
    for (const secret of Object.values(secrets)) {
      expect(secret.DeletionPolicy).toBe('Retain');
      expect(secret.UpdateReplacePolicy).toBe('Retain');
      expect(secret.Properties?.SecretString).toBeUndefined();
      expect(JSON.parse(secret.Properties?.GenerateSecretString.SecretStringTemplate)).toHaveProperty('unset');
      expect(secret.Properties?.Description).toMatch(/put-secret-value/);
    }
    expect(
      Object.values(secrets)
        .map((s) => s.Properties?.Description)
        .join('\n'),
    ).toMatch(/API key[\s\S]*webhook/);
  });

  it('gives the provider and its settings to exactly the functions whose row calls the bank', () => {
    expect(bankFunctions.map((f) => f.description).sort()).toEqual(bankRowsDeployed(bankRoutesOnRails()));
    expect(bankFunctions.map((f) => f.description)).toEqual(
      expect.arrayContaining([consumer('VerificationWorker'), consumer('BankReturnWindows')]),
    );
    for (const f of bankFunctions) {
      expect(f.variables).toMatchObject({
        [CONFIG_ENV.bankProvider]: 'increase',
        [CONFIG_ENV.increaseAccountId]: 'account_in71c4amph0vgo2qllky',
        [CONFIG_ENV.increaseEnvironment]: 'sandbox',
        [CONFIG_ENV.bankStatementName]: 'VERIFY',
      });
    }
    for (const f of functions.filter((f) => !bankFunctions.includes(f))) {
      expect(f.variables[CONFIG_ENV.bankApiKeySecretArn], f.description).toBeUndefined();
      expect(f.variables[CONFIG_ENV.bankWebhookSecretArn], f.description).toBeUndefined();
      expect(f.variables[CONFIG_ENV.increaseAccountId], f.description).toBeUndefined();
    }
  });

  it('gives each of those functions the ARN of exactly the secrets its row reads: the webhook secret’s to the notice route alone', () => {
    const arnsOf = (f: (typeof functions)[number]) =>
      Object.fromEntries(
        Object.entries(SECRET_ARN_VARIABLE).flatMap(([secret, variable]) =>
          f.variables[variable] === undefined ? [] : [[secret, refId(f.variables[variable])]],
        ),
      );
    const given = Object.fromEntries(bankFunctions.map((f) => [f.description, arnsOf(f)]));
    expect(given).toEqual({
      [consumer('VerificationWorker')]: { apiKey: secretIdOf.apiKey },
      [consumer('BankReturnWindows')]: { apiKey: secretIdOf.apiKey },
      [NOTICE]: { apiKey: secretIdOf.apiKey, webhookSecret: secretIdOf.webhookSecret },
    });
    for (const f of bankFunctions) {
      expect(Object.keys(arnsOf(f)).sort(), f.description).toEqual(secretsReadByRow()[rowIdOf(f.description)]);
    }
  });

  it('lets each of those functions read exactly the secrets its row reads (GetSecretValue, nothing else), and no other function any', () => {
    const readable = Object.fromEntries(
      bankFunctions.map((f) => {
        const reads = f.statements.filter((s) => secretActions([s]).length > 0);
        expect(reads, f.description).toHaveLength(1);
        expect(reads[0]!.Action).toBe('secretsmanager:GetSecretValue');
        return [f.description, ([reads[0]!.Resource].flat() as unknown[]).map(refId).sort()];
      }),
    );
    expect(readable).toEqual({
      [consumer('VerificationWorker')]: [secretIdOf.apiKey],
      [consumer('BankReturnWindows')]: [secretIdOf.apiKey],
      [NOTICE]: [secretIdOf.apiKey, secretIdOf.webhookSecret].sort(),
    });
    const others = functions.filter((f) => !bankFunctions.includes(f));
    expect(others.flatMap((f) => secretActions(f.statements))).toEqual([]);
  });

  it('sends to Increase’s production environment only when asked', () => {
    const production = functionsOf({
      context: { ...INCREASE, increaseEnvironment: 'production', bankStatementName: 'NORTHWIND' },
    }).functions.filter((f) => f.variables[CONFIG_ENV.bankProvider] !== undefined);
    expect(new Set(production.map((f) => f.variables[CONFIG_ENV.increaseEnvironment]))).toEqual(
      new Set(['production']),
    );
    expect(new Set(production.map((f) => f.variables[CONFIG_ENV.bankStatementName]))).toEqual(new Set(['NORTHWIND']));
  });

  it('passes cdk-nag, the secrets’ rotation finding acknowledged', () => {
    const { app } = buildApp({ nag: true, context: INCREASE });
    expect(() => app.synth()).not.toThrow();
  });
});

/** A role ARN as a resource policy names one: the logical id of `{ "Fn::GetAtt": [id, "Arn"] }`, or the literal ARN. */
const principalOf = (arn: unknown) => (typeof arn === 'string' ? arn : `role ${refId(arn)}`);

/** Each secret's resource policy, by the secret's logical id: its statements. */
function secretPolicies(options: BuildOptions) {
  const { template, functions } = functionsOf(options);
  const outputs = template.findOutputs('*');
  const ids = {
    apiKey: refId(outputs.BankApiKeySecretArn?.Value)!,
    webhookSecret: refId(outputs.BankWebhookSecretArn?.Value)!,
  };
  const policyResources = Object.values(resourcesOf(template, 'AWS::SecretsManager::ResourcePolicy'));
  const policies = policyResources.map((p) => propsOf(p, 'secret resource policy'));
  const policyOf = (secret: keyof typeof ids) => {
    const found = policies.filter((p) => refId(p.SecretId) === ids[secret]);
    expect(found, secret).toHaveLength(1);
    return found[0]!.ResourcePolicy.Statement as Record<string, any>[];
  };
  /** The execution roles of the functions that may read a secret by their own policy. */
  const readersOf = (secret: keyof typeof ids) =>
    functions
      .filter((f) =>
        f.statements.some(
          (s) =>
            actionsOf([s]).includes('secretsmanager:GetSecretValue') &&
            ([s.Resource].flat() as unknown[]).map(refId).includes(ids[secret]),
        ),
      )
      .map((f) => `role ${f.role}`)
      .sort();
  const roleOf = (description: string) => `role ${functions.find((f) => f.description === description)?.role}`;
  return { policies, policyResources, policyOf, readersOf, roleOf };
}

const BREAK_GLASS = 'arn:aws:iam::123456789012:role/ops/BankSecretsBreakGlass';

describe('on rails, each secret’s resource policy: only its readers’ own roles may read it', () => {
  const { policies, policyResources, policyOf, readersOf, roleOf } = secretPolicies({ context: INCREASE });

  it('is retained with its secret, so a secret left behind (the stack deleted, or switched to the sandbox) stays unreadable but by the break-glass role', () => {
    expect(policyResources).toHaveLength(2);
    for (const policy of policyResources) {
      expect(policy.DeletionPolicy).toBe('Retain');
      expect(policy.UpdateReplacePolicy).toBe('Retain');
    }
  });

  it('is one per secret, a single Deny of GetSecretValue to every principal whose ARN is none of its readers’ execution roles', () => {
    expect(policies).toHaveLength(2);
    for (const secret of ['apiKey', 'webhookSecret'] as const) {
      const statements = policyOf(secret);
      expect(statements, secret).toHaveLength(1);
      const [deny] = statements;
      expect(deny).toMatchObject({ Effect: 'Deny', Principal: { AWS: '*' }, Action: 'secretsmanager:GetSecretValue' });
      expect(Object.keys(deny!.Condition)).toEqual(['ArnNotEquals']);
      expect(Object.keys(deny!.Condition.ArnNotEquals)).toEqual(['aws:PrincipalArn']);
    }
  });

  it('lists exactly the readers of each: the API key’s the three functions that call Increase, the webhook secret’s the notice route alone', () => {
    const listed = (secret: 'apiKey' | 'webhookSecret') =>
      [policyOf(secret)[0]!.Condition.ArnNotEquals['aws:PrincipalArn']].flat().map(principalOf).sort();
    expect(listed('apiKey')).toEqual(readersOf('apiKey'));
    expect(listed('webhookSecret')).toEqual(readersOf('webhookSecret'));
    expect(listed('apiKey')).toEqual(
      [roleOf(consumer('VerificationWorker')), roleOf(consumer('BankReturnWindows')), roleOf(NOTICE)].sort(),
    );
    expect(listed('webhookSecret')).toEqual([roleOf(NOTICE)]);
  });

  it('leaves everything but reading the value alone: the operator’s put-secret-value and describe-secret still work', () => {
    for (const secret of ['apiKey', 'webhookSecret'] as const) {
      const actions = policyOf(secret).flatMap((s) => [s.Action].flat());
      expect(actions).toEqual(['secretsmanager:GetSecretValue']);
    }
  });

  it('adds a break-glass role to both, when context bankSecretsBreakGlassRoleArn names one', () => {
    const withBreakGlass = secretPolicies({ context: { ...INCREASE, bankSecretsBreakGlassRoleArn: BREAK_GLASS } });
    for (const secret of ['apiKey', 'webhookSecret'] as const) {
      const listed = [withBreakGlass.policyOf(secret)[0]!.Condition.ArnNotEquals['aws:PrincipalArn']]
        .flat()
        .map(principalOf);
      expect(listed.sort(), secret).toEqual([...withBreakGlass.readersOf(secret), BREAK_GLASS].sort());
    }
  });

  it('passes cdk-nag with a break-glass role too', () => {
    const { app } = buildApp({ nag: true, context: { ...INCREASE, bankSecretsBreakGlassRoleArn: BREAK_GLASS } });
    expect(() => app.synth()).not.toThrow();
  });
});

/** The deployed routes of a stack on rails. */
function bankRoutesOnRails() {
  return deployedRoutes(servedRoutes('increase'));
}

const NOTICE = 'POST /bank/notices';

/** The purposes a KMS statement is confined to (`kms:EncryptionContext:purpose`); any purpose when unconfined. */
function decryptPurposes(statement: object): string[] {
  const condition = (statement as { Condition?: { StringEquals?: Record<string, string | string[]> } }).Condition;
  const purposes = condition?.StringEquals?.['kms:EncryptionContext:purpose'];
  return purposes === undefined ? ['<any purpose>'] : [purposes].flat();
}
const routesOf = (options: BuildOptions) =>
  Object.values(resourcesOf(synthTemplate(options), 'AWS::ApiGatewayV2::Route')).map((r) => r.Properties ?? {});

describe('the provider’s notice route, POST /bank/notices', () => {
  it('is the one notice route, and calls the bank', () => {
    expect(NOTICE_ROUTES.map(routeKey)).toEqual([NOTICE]);
    expect(NOTICE_ROUTES[0]).toMatchObject({
      auth: 'provider-signature',
      bank: { secrets: ['apiKey', 'webhookSecret'] },
      scopes: [],
    });
  });

  it('is not deployed with the sandbox bank: every route keeps the JWT authorizer and no notice URL is output', () => {
    const routes = routesOf({});
    expect(routes.map((r) => r.RouteKey)).not.toContain(NOTICE);
    expect(routes.every((r) => r.AuthorizationType === 'JWT')).toBe(true);
    expect(Object.keys(synthTemplate({}).findOutputs('*'))).not.toContain('BankNoticeUrl');
  });

  it('on rails, is exactly the one route without an authorizer; every other route keeps the JWT authorizer', () => {
    const routes = routesOf({ context: INCREASE });
    const unauthorized = routes.filter((r) => r.AuthorizationType !== 'JWT');
    expect(unauthorized.map((r) => [r.RouteKey, r.AuthorizationType])).toEqual([[NOTICE, 'NONE']]);
    expect(unauthorized[0]!.AuthorizerId).toBeUndefined();
    expect(routes.map((r) => r.RouteKey).sort()).toEqual(bankRoutesOnRails().map(routeKey).sort());
  });

  it('on rails, its function may only do what its row says: no tenant alias, settings, token bucket or idempotency record', () => {
    const { functions } = functionsOf({ context: INCREASE });
    const notice = functions.find((f) => f.description === NOTICE)!;
    const allowed = notice.statements.filter((statement) => statement.Effect === 'Allow');
    const tableActions = actionsOf(allowed).filter((a) => a.startsWith('dynamodb:'));
    expect(new Set(tableActions)).toEqual(
      new Set(['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:Query', 'dynamodb:DeleteItem']),
    );
    expect(notice.variables[CONFIG_ENV.tenantRatePerSecond]).toBeUndefined();
    expect(JSON.stringify(allowed)).not.toMatch(/"(CLIENT|RATE|IDEM|TENANT)#/);
  });

  it('on rails, its function cannot open an SSN or tax id: no kms:Decrypt under the ownership purpose (Increase checks no ownership)', () => {
    const { template, functions } = functionsOf({ context: INCREASE });
    const notice = functions.find((f) => f.description === NOTICE)!;
    const decrypts = notice.statements.filter(
      (statement) =>
        refId(statement.Resource) === kmsKeyIds(template).cipher &&
        statement.Effect === 'Allow' &&
        actionsOf([statement]).includes('kms:Decrypt'),
    );
    const purposes = decrypts.flatMap((statement) => decryptPurposes(statement));
    // It still opens the data keys it holds (digest and field key), each under its own purpose.
    expect(purposes.sort()).toEqual(['digest-key', 'field-key']);
  });

  it('on rails, outputs the URL to register with the provider and the two secrets to set', () => {
    const outputs = synthTemplate({ context: INCREASE }).findOutputs('*');
    expect(Object.keys(outputs)).toEqual(
      expect.arrayContaining(['BankNoticeUrl', 'BankApiKeySecretArn', 'BankWebhookSecretArn']),
    );
    expect(JSON.stringify(outputs.BankNoticeUrl?.Value)).toContain('bank/notices');
  });
});
