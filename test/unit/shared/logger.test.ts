import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, REDACTED, redact, setLogSink } from '#shared/logger';

describe('structured logger', () => {
  afterEach(() => setLogSink(undefined));

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

  it('writes one JSON line per entry with the base fields', () => {
    const lines: string[] = [];
    setLogSink((line) => lines.push(line));
    createLogger({ request_id: 'r1' }).child({ tenant: 't1' }).info('hello', { ssn: '123456789' });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({
      level: 'INFO',
      message: 'hello',
      request_id: 'r1',
      tenant: 't1',
      ssn: REDACTED,
    });
  });
});
