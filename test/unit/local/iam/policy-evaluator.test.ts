import { describe, expect, it } from 'vitest';
import { evaluatePolicy, type PolicyRequest, type PolicyStatementInput } from '#lib/local/iam/policy-evaluator';
import type { TableAccess } from '#lib/service/index';
import { TENANT_TAG_VARIABLE, tenantRoleStatements } from '#lib/service/tenant-access';

const TABLE = 'arn:aws:dynamodb:us-east-1:123456789012:table/verify-service';
const ACME = { tenant: 'acme' };

const get = (...leadingKeys: string[]): PolicyRequest => ({ action: 'dynamodb:GetItem', resource: TABLE, leadingKeys });
const allow = (statement: Partial<PolicyStatementInput> = {}): PolicyStatementInput => ({
  Effect: 'Allow',
  Action: ['dynamodb:GetItem'],
  Resource: [TABLE],
  ...statement,
});

describe('the policy evaluator: effects', () => {
  it('allows a request some Allow matches', () => {
    expect(evaluatePolicy([allow()], get('T#acme#VA#1'))).toBe('allowed');
  });

  it('denies implicitly what no statement allows: another action, another resource, no statement at all', () => {
    expect(evaluatePolicy([allow()], { ...get('x'), action: 'dynamodb:PutItem' })).toBe('implicitly-denied');
    expect(evaluatePolicy([allow()], { ...get('x'), resource: `${TABLE}-other` })).toBe('implicitly-denied');
    expect(evaluatePolicy([], get('x'))).toBe('implicitly-denied');
  });

  it('lets an explicit Deny win over any Allow, in either order', () => {
    const deny = allow({ Effect: 'Deny' });
    expect(evaluatePolicy([allow(), deny], get('x'))).toBe('explicitly-denied');
    expect(evaluatePolicy([deny, allow()], get('x'))).toBe('explicitly-denied');
  });
});

describe('the policy evaluator: actions and resources', () => {
  it('matches actions with wildcards and ignoring case, as IAM does', () => {
    expect(evaluatePolicy([allow({ Action: 'dynamodb:Get*' })], get('x'))).toBe('allowed');
    expect(evaluatePolicy([allow({ Action: ['*'] })], get('x'))).toBe('allowed');
    expect(evaluatePolicy([allow({ Action: 'DynamoDB:getitem' })], get('x'))).toBe('allowed');
    expect(evaluatePolicy([allow({ Action: 'dynamodb:Get' })], get('x'))).toBe('implicitly-denied');
    expect(evaluatePolicy([allow({ Action: 'dynamodb:BatchGet*' })], get('x'))).toBe('implicitly-denied');
  });

  it('matches resources exactly or by * and ? within an ARN part, case-sensitively', () => {
    const request = { ...get('x'), resource: `${TABLE}/index/gsi1` };
    expect(evaluatePolicy([allow({ Resource: `${TABLE}/index/*` })], request)).toBe('allowed');
    expect(evaluatePolicy([allow({ Resource: `${TABLE}/index/gsi?` })], request)).toBe('allowed');
    expect(evaluatePolicy([allow({ Resource: 'arn:aws:dynamodb:*:123456789012:table/*' })], request)).toBe('allowed');
    expect(evaluatePolicy([allow({ Resource: '*' })], request)).toBe('allowed');
    // The table's ARN is not its indexes'.
    expect(evaluatePolicy([allow()], request)).toBe('implicitly-denied');
    expect(evaluatePolicy([allow({ Resource: `${TABLE}/INDEX/*` })], request)).toBe('implicitly-denied');
    expect(evaluatePolicy([allow({ Resource: 'arn:aws:dynamodb:*:999999999999:table/*' })], request)).toBe(
      'implicitly-denied',
    );
  });
});

describe('the policy evaluator: conditions on dynamodb:LeadingKeys', () => {
  const confined = (Condition: PolicyStatementInput['Condition']) => [allow({ Condition })];

  it('ForAllValues:StringLike holds when every key matches some pattern: one foreign key of a batch denies it all', () => {
    const policy = confined({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['T#acme#*', 'RATE#acme'] } });
    expect(evaluatePolicy(policy, get('T#acme#VA#1', 'RATE#acme'))).toBe('allowed');
    expect(evaluatePolicy(policy, get('T#acme#VA#1', 'T#globex#VA#1'))).toBe('implicitly-denied');
  });

  it('ForAllValues holds for a request without keys: the reason every confined grant adds Null false', () => {
    const loose = confined({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['T#acme#*'] } });
    expect(evaluatePolicy(loose, get())).toBe('allowed');
    const guarded = confined({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['T#acme#*'] },
      Null: { 'dynamodb:LeadingKeys': 'false' },
    });
    expect(evaluatePolicy(guarded, get())).toBe('implicitly-denied');
    expect(evaluatePolicy(guarded, get('T#acme#1'))).toBe('allowed');
  });

  it('ForAnyValue holds when some key matches, and never without keys', () => {
    const policy = confined({ 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': 'T#acme#*' } });
    expect(evaluatePolicy(policy, get('T#globex#1', 'T#acme#1'))).toBe('allowed');
    expect(evaluatePolicy(policy, get('T#globex#1'))).toBe('implicitly-denied');
    expect(evaluatePolicy(policy, get())).toBe('implicitly-denied');
  });

  it('StringEquals and ForAllValues:StringEquals compare exactly: * is no wildcard there', () => {
    expect(evaluatePolicy(confined({ StringEquals: { 'dynamodb:LeadingKeys': 'RATE#acme' } }), get('RATE#acme'))).toBe(
      'allowed',
    );
    const star = confined({ 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': 'T#acme#*' } });
    expect(evaluatePolicy(star, get('T#acme#1'))).toBe('implicitly-denied');
    expect(evaluatePolicy(star, get('T#acme#*'))).toBe('allowed');
  });

  it('single-valued StringLike holds on one matching key and never on an absent one', () => {
    const policy = confined({ StringLike: { 'dynamodb:LeadingKeys': ['T#acme#?'] } });
    expect(evaluatePolicy(policy, get('T#acme#1'))).toBe('allowed');
    expect(evaluatePolicy(policy, get('T#acme#12'))).toBe('implicitly-denied');
    expect(evaluatePolicy(policy, get())).toBe('implicitly-denied');
  });

  it('Null true holds only without keys', () => {
    const policy = confined({ Null: { 'dynamodb:LeadingKeys': 'true' } });
    expect(evaluatePolicy(policy, get())).toBe('allowed');
    expect(evaluatePolicy(policy, get('T#acme#1'))).toBe('implicitly-denied');
  });

  it('substitutes the principal tag variable by the tag and the star variable by a literal star; a missing tag makes the statement not match', () => {
    const policy = confined({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`T#${TENANT_TAG_VARIABLE}#*`] } });
    expect(evaluatePolicy(policy, get('T#acme#1'), ACME)).toBe('allowed');
    expect(evaluatePolicy(policy, get('T#acme#1'), { tenant: 'globex' })).toBe('implicitly-denied');
    expect(evaluatePolicy(policy, get('T#acme#1'), {})).toBe('implicitly-denied');
    const denyWithoutTag = [allow(), { ...policy[0]!, Effect: 'Deny' as const }];
    expect(evaluatePolicy(denyWithoutTag, get('T#acme#1'), {})).toBe('allowed');
    const literal = confined({ StringLike: { 'dynamodb:LeadingKeys': `T#\${*}` } });
    expect(evaluatePolicy(literal, get('T#*'))).toBe('allowed');
    expect(evaluatePolicy(literal, get('T#acme'))).toBe('implicitly-denied');
  });
});

describe('the policy evaluator: what it does not model throws rather than guesses', () => {
  const evaluate =
    (statement: Record<string, unknown>, request = get('T#acme#1')) =>
    () =>
      evaluatePolicy([allow(statement as Partial<PolicyStatementInput>)], request, ACME);

  it.each([
    ['an unknown operator', { Condition: { StringNotLike: { 'dynamodb:LeadingKeys': 'x' } } }],
    ['an IfExists operator', { Condition: { StringLikeIfExists: { 'dynamodb:LeadingKeys': 'x' } } }],
    ['a set operator on Null', { Condition: { 'ForAllValues:Null': { 'dynamodb:LeadingKeys': 'true' } } }],
    ['an unknown condition key', { Condition: { StringEquals: { 'aws:SourceIp': '10.0.0.1' } } }],
    ['an unknown policy variable', { Condition: { StringLike: { 'dynamodb:LeadingKeys': `\${aws:username}` } } }],
    ['a Null value other than true or false', { Condition: { Null: { 'dynamodb:LeadingKeys': 'yes' } } }],
    ['NotAction', { NotAction: ['dynamodb:PutItem'] }],
    ['an unresolved token as resource', { Resource: [{ 'Fn::GetAtt': ['Table', 'Arn'] }] }],
  ])('%s', (_, statement) => {
    expect(evaluate(statement)).toThrow(/policy evaluator/);
  });

  it('a single-valued operator on several keys', () => {
    const statement = { Condition: { StringLike: { 'dynamodb:LeadingKeys': 'T#acme#*' } } };
    expect(evaluate(statement, get('T#acme#1', 'T#acme#2'))).toThrow(/ForAllValues or ForAnyValue/);
  });

  it('reads no condition of a statement whose action does not apply (a KMS statement beside the table’s)', () => {
    const kms = {
      Action: 'kms:Decrypt',
      Resource: '*',
      Condition: { StringEquals: { 'kms:EncryptionContext:purpose': 'x' } },
    };
    expect(evaluatePolicy([allow(), allow(kms as Partial<PolicyStatementInput>)], get('x'))).toBe('allowed');
  });
});

describe('a tenant role’s statements (tenantRoleStatements), evaluated for the session tenant acme', () => {
  const access: TableAccess[] = [
    { actions: ['GetItem', 'Query'], leadingKeys: ['tenantData', 'idempotency'], indexes: ['byTenant'] },
    { actions: ['UpdateItem'], leadingKeys: ['rateBucket'] },
  ];
  const statements = tenantRoleStatements(access, { table: TABLE, index: (name) => `${TABLE}/index/${name}` });
  const decide = (action: string, key: string | undefined, resource = TABLE, tags = ACME) =>
    evaluatePolicy(statements, { action: `dynamodb:${action}`, resource, leadingKeys: key ? [key] : [] }, tags);

  it('reaches acme’s own keys of each kind its access names', () => {
    expect(decide('GetItem', 'T#acme#VA#1')).toBe('allowed');
    expect(decide('Query', 'T#acme#VA#1')).toBe('allowed');
    expect(decide('GetItem', 'IDEM#acme#CreateVerifyAccount#d1')).toBe('allowed');
    expect(decide('UpdateItem', 'RATE#acme')).toBe('allowed');
    expect(decide('Query', 'T#acme#VA', `${TABLE}/index/byTenant`)).toBe('allowed');
  });

  it.each([
    ['another tenant’s data', 'GetItem', 'T#globex#VA#1'],
    ['a tenant whose name starts with acme', 'GetItem', 'T#acmex#VA#1'],
    ['the bare prefix, without # after the tenant', 'GetItem', 'T#acme'],
    ['another tenant’s idempotency record', 'GetItem', 'IDEM#globex#CreateVerifyAccount#d1'],
    ['another tenant’s token bucket', 'UpdateItem', 'RATE#globex'],
    ['a bucket of a longer name', 'UpdateItem', 'RATE#acmex'],
    ['a key below the one bucket', 'UpdateItem', 'RATE#acme#x'],
    ['acme’s bucket with an action granted only on its data', 'GetItem', 'RATE#acme'],
    ['acme’s data with an action granted only on its bucket', 'UpdateItem', 'T#acme#VA#1'],
    ['an action granted on no kind', 'DeleteItem', 'T#acme#VA#1'],
    ['a kind of no tenant', 'GetItem', 'CLIENT#acme'],
    ['no key at all', 'GetItem', undefined],
  ])('refuses %s (%s on %s)', (_, action, key) => {
    expect(decide(action, key)).toBe('implicitly-denied');
  });

  it('refuses another tenant’s index partition, an index it does not name, and any key without the session tag', () => {
    expect(decide('Query', 'T#globex#VA', `${TABLE}/index/byTenant`)).toBe('implicitly-denied');
    expect(decide('Query', 'T#acme#VA', `${TABLE}/index/byLookup`)).toBe('implicitly-denied');
    expect(decide('GetItem', 'T#acme#VA#1', TABLE, {} as typeof ACME)).toBe('implicitly-denied');
  });
});
