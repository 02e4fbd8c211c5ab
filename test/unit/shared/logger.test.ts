import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '#shared/errors';
import { createLogger, REDACTED, redact, setLogSink } from '#shared/logger';
import { lambdaContext } from '#test/support/http-events';

afterEach(() => {
  setLogSink(undefined);
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** The lines `act` writes, parsed. */
function linesOf(act: () => void): Record<string, unknown>[] {
  const lines: string[] = [];
  setLogSink((line) => lines.push(line));
  act();
  return lines.map((line) => JSON.parse(line));
}

/** A fresh copy of the module, for what Powertools reads from the environment when the logger is made. */
async function freshLogger(env: Record<string, string>) {
  vi.resetModules();
  for (const name of ['LOG_LEVEL', 'POWERTOOLS_LOG_LEVEL', 'POWERTOOLS_SERVICE_NAME', 'AWS_LAMBDA_LOG_LEVEL'])
    vi.stubEnv(name, undefined);
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  const module = await import('#shared/logger');
  const lines: Record<string, unknown>[] = [];
  module.setLogSink((line) => lines.push(JSON.parse(line)));
  return { ...module, lines };
}

describe('structured logger: redaction', () => {
  it('redacts sensitive keys wherever they are nested', () => {
    const value = redact({
      account_number: '1234567890',
      person: { ssn: '123456789', first_name: 'Jane' },
      business: [{ tax_id: '987654321' }],
      headers: { authorization: 'Bearer x' },
      webhook_secret: 'whsec_abc',
      statement_code: 'AB12',
    });
    const text = JSON.stringify(value);
    for (const secret of ['1234567890', '123456789', '987654321', 'Bearer x', 'whsec_abc', 'AB12']) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('Jane');
    expect(text).toContain(REDACTED);
  });

  it('never writes a sensitive value: not in fields, arrays, base fields nor an error’s own properties', () => {
    const error = new AppError(400, 'invalid_ssn', 'the SSN is not valid', { issues: [{ ssn: '111223333' }] });
    const [line] = linesOf(() =>
      createLogger({ webhook_secret: 'whsec_base' })
        .child({ person: { social_security_number: '222334444' } })
        .error('failed', {
          accounts: [{ account_number: '5550001234' }],
          ciphertext: 'AQICAHh-cipher',
          nested: { deeper: { still: { password: 'hunter2', token: 'tok_abc' } } },
          error,
        }),
    );
    const text = JSON.stringify(line);
    for (const secret of [
      'whsec_base',
      '222334444',
      '5550001234',
      'AQICAHh-cipher',
      'hunter2',
      'tok_abc',
      '111223333',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(line).toMatchObject({
      webhook_secret: REDACTED,
      ciphertext: REDACTED,
      accounts: [{ account_number: REDACTED }],
    });
  });

  it('writes an error with its name, message and stack', () => {
    const [line] = linesOf(() => createLogger().error('request failed', { error: new TypeError('boom') }));
    expect(line.error).toMatchObject({ name: 'TypeError', message: 'boom' });
    expect(String((line.error as { stack: string }).stack)).toContain('TypeError: boom');
  });
});

describe('structured logger: lines', () => {
  it('writes one JSON line per entry with the base fields', () => {
    const lines = linesOf(() =>
      createLogger({ request_id: 'r1' }).child({ tenant: 't1' }).info('hello', { ssn: '123456789' }),
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'INFO',
      message: 'hello',
      request_id: 'r1',
      tenant: 't1',
      ssn: REDACTED,
      service: 'verify-service',
    });
    expect(Date.parse(String(lines[0].timestamp))).not.toBeNaN();
  });

  it('lets a child’s fields and an entry’s fields add to the parent’s without changing it', () => {
    const parent = createLogger({ worker: 'w', tenant: 'a' });
    const lines = linesOf(() => {
      parent.child({ tenant: 'b' }).warn('child', { extra: 1 });
      parent.info('parent');
    });
    expect(lines[0]).toMatchObject({ level: 'WARN', worker: 'w', tenant: 'b', extra: 1 });
    expect(lines[1]).toMatchObject({ worker: 'w', tenant: 'a' });
    expect(lines[1]).not.toHaveProperty('extra');
  });

  it('writes to stdout as Powertools does when no sink is set', () => {
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => out.push(String(chunk)) > 0);
    createLogger({ request_id: 'r2' }).info('to stdout', { account_number: '1234567890' });
    vi.restoreAllMocks();
    const line = JSON.parse(out.join(''));
    expect(line).toMatchObject({ level: 'INFO', message: 'to stdout', request_id: 'r2', account_number: REDACTED });
  });
});

describe('structured logger: environment', () => {
  it('honours LOG_LEVEL as the CDK stack sets it, in lower case', async () => {
    const atInfo = await freshLogger({});
    atInfo.createLogger().debug('hidden');
    atInfo.createLogger().info('shown');
    expect(atInfo.lines.map((l) => l.message)).toEqual(['shown']);

    const atDebug = await freshLogger({ LOG_LEVEL: 'debug' });
    atDebug.createLogger().debug('shown at debug');
    expect(atDebug.lines).toMatchObject([{ level: 'DEBUG', message: 'shown at debug' }]);

    const atError = await freshLogger({ LOG_LEVEL: 'error' });
    atError.createLogger().warn('hidden');
    atError.createLogger().error('shown');
    expect(atError.lines.map((l) => l.message)).toEqual(['shown']);
  });

  it('names the service from POWERTOOLS_SERVICE_NAME', async () => {
    const logger = await freshLogger({ POWERTOOLS_SERVICE_NAME: 'verify-staging' });
    logger.createLogger().info('x');
    expect(logger.lines[0].service).toBe('verify-staging');
  });

  it('carries the Lambda request id of the invocation, and cold start on the first invocation only', async () => {
    const logger = await freshLogger({ AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand' });
    const first: Context = lambdaContext();
    const second: Context = lambdaContext();

    logger.withLogContext(first, () => {
      logger.createLogger().info('first invocation');
      logger.createLogger().info('first invocation, later');
    });
    logger.withLogContext(second, () => logger.createLogger().info('second invocation'));

    expect(logger.lines[0]).toMatchObject({
      function_request_id: first.awsRequestId,
      function_name: first.functionName,
      cold_start: true,
    });
    expect(logger.lines[1]).toMatchObject({ function_request_id: first.awsRequestId, cold_start: true });
    expect(logger.lines[2]).toMatchObject({ function_request_id: second.awsRequestId, cold_start: false });
  });

  it('keeps each invocation’s request id on its own lines when invocations interleave (the local runtime)', async () => {
    const logger = await freshLogger({});
    const [a, b] = [lambdaContext(), lambdaContext()];
    const tick = () => new Promise((resolve) => setTimeout(resolve, 1));
    const run = (context: Context, name: string) =>
      logger.withLogContext(context, async () => {
        for (const step of [1, 2, 3]) {
          logger.createLogger({ invocation: name }).info(`step ${step}`);
          await tick();
        }
      });

    await Promise.all([run(a, 'a'), run(b, 'b')]);

    const ids = { a: a.awsRequestId, b: b.awsRequestId };
    expect(logger.lines).toHaveLength(6);
    for (const line of logger.lines) {
      expect(line.function_request_id).toBe(ids[line.invocation as 'a' | 'b']);
    }
  });
});
