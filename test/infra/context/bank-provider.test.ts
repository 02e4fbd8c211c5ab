import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { bankSettingsFromContext } from '#lib/context/bank-provider';
import { buildApp } from '../harness';

const settings = (context: Record<string, unknown>) => bankSettingsFromContext(new App({ context }));
const INCREASE = { bankProvider: 'increase', increaseAccountId: 'account_in71c4amph0vgo2qllky' };

describe('context bankProvider: which rails the verification worker uses', () => {
  it('defaults to the sandbox bank when unset or empty (`-c bankProvider=`)', () => {
    expect(settings({})).toEqual({ provider: 'sandbox' });
    expect(settings({ bankProvider: '' })).toEqual({ provider: 'sandbox' });
    expect(settings({ bankProvider: 'sandbox' })).toEqual({ provider: 'sandbox' });
  });

  it('names Increase with its account, on Increase’s sandbox environment unless production is asked for', () => {
    expect(settings(INCREASE)).toEqual({
      provider: 'increase',
      increase: { accountId: 'account_in71c4amph0vgo2qllky', environment: 'sandbox', statementName: 'VERIFY' },
    });
    expect(settings({ ...INCREASE, increaseEnvironment: 'production', bankStatementName: 'NORTHWIND' })).toEqual({
      provider: 'increase',
      increase: { accountId: 'account_in71c4amph0vgo2qllky', environment: 'production', statementName: 'NORTHWIND' },
    });
  });

  it('takes the name a holder sees beside the statement code: printable ASCII, at most 11 characters', () => {
    expect(settings({ ...INCREASE, bankStatementName: 'Acme Pay' })).toMatchObject({
      increase: { statementName: 'Acme Pay' },
    });
    for (const value of ['Twelve chars', 'Café', '', '  ', 42]) {
      expect(() => settings({ ...INCREASE, increaseEnvironment: 'production', bankStatementName: value })).toThrow(
        /context "bankStatementName"/,
      );
    }
  });

  it('requires the statement name in Increase’s production: the holder must recognise who sent the cent (Nacha)', () => {
    expect(() => settings({ ...INCREASE, increaseEnvironment: 'production' })).toThrow(
      /context "bankStatementName" is required with increaseEnvironment=production.*recogni/,
    );
  });

  it.each([['Increase'], ['orum'], [1], [true], [['increase']]])(
    'refuses %j, naming the key and the providers',
    (value) => {
      expect(() => settings({ bankProvider: value })).toThrow(
        /context "bankProvider" must be one of sandbox, increase/,
      );
    },
  );

  it('refuses Increase without the account entries are sent from, saying where to find it', () => {
    expect(() => settings({ bankProvider: 'increase' })).toThrow(
      /context "increaseAccountId" is required with bankProvider=increase.*account_/,
    );
  });

  it.each([['acct-1'], ['account_'], [42], ['account_x y']])('refuses the account id %j', (value) => {
    expect(() => settings({ ...INCREASE, increaseAccountId: value })).toThrow(/context "increaseAccountId" must be/);
  });

  it.each([['live'], ['Production'], [1]])('refuses the environment %j', (value) => {
    expect(() => settings({ ...INCREASE, increaseEnvironment: value })).toThrow(
      /context "increaseEnvironment" must be one of sandbox, production/,
    );
  });

  it.each([
    ['increaseAccountId', 'account_in71c4amph0vgo2qllky'],
    ['increaseEnvironment', 'production'],
    ['bankStatementName', 'ACME'],
  ])('refuses %s without bankProvider=increase rather than ignoring it', (key, value) => {
    expect(() => settings({ [key]: value })).toThrow(new RegExp(`context "${key}" is an Increase setting`));
  });

  it('names a break-glass role that may read the bank’s secrets beside the functions that do (bankSecretsBreakGlassRoleArn)', () => {
    const role = 'arn:aws:iam::123456789012:role/ops/BankSecretsBreakGlass';
    expect(settings({ ...INCREASE, bankSecretsBreakGlassRoleArn: role })).toEqual({
      provider: 'increase',
      increase: { accountId: 'account_in71c4amph0vgo2qllky', environment: 'sandbox', statementName: 'VERIFY' },
      breakGlassRoleArn: role,
    });
    expect(settings({ ...INCREASE, bankSecretsBreakGlassRoleArn: '' })).not.toHaveProperty('breakGlassRoleArn');
  });

  it.each([
    ['arn:aws:iam::123456789012:user/alice'],
    ['arn:aws:iam::123456789012:role/*'],
    ['arn:aws:sts::123456789012:assumed-role/Ops/alice'],
    ['arn:aws:iam::12345:role/Ops'],
    ['BankSecretsBreakGlass'],
    [42],
  ])('refuses %j as the break-glass role: one IAM role’s ARN, no pattern', (value) => {
    expect(() => settings({ ...INCREASE, bankSecretsBreakGlassRoleArn: value })).toThrow(
      /context "bankSecretsBreakGlassRoleArn" must be an IAM role's ARN such as arn:aws:iam::123456789012:role\/BankSecretsBreakGlass/,
    );
  });

  it('refuses a break-glass role without bankProvider=increase: the sandbox has no secrets to read', () => {
    expect(() =>
      settings({ bankSecretsBreakGlassRoleArn: 'arn:aws:iam::123456789012:role/BankSecretsBreakGlass' }),
    ).toThrow(/context "bankSecretsBreakGlassRoleArn" .*bankProvider.* sandbox/);
  });

  it('fails synthesis with the same message', () => {
    expect(() => buildApp({ context: { bankProvider: 'increase' } })).toThrow(
      /context "increaseAccountId" is required/,
    );
  });
});
