import { describe, expect, it } from 'vitest';
import { terminalLine } from '#lib/local/handler-log';

const powertoolsLine = (fields: Record<string, unknown>) =>
  JSON.stringify({
    level: 'INFO',
    message: 'person restricted: sanctions list match',
    timestamp: '2026-11-23T15:40:01.234Z',
    service: 'verify-service',
    cold_start: false,
    function_arn: 'arn:aws:lambda:us-east-1:123456789012:function:ScreeningWorker',
    function_memory_size: '512',
    function_name: 'ScreeningWorker',
    function_request_id: '92f1e6bd-4ebc-4b0e-9523-597c1251f33f',
    sampling_rate: 0,
    ...fields,
  });

describe('terminalLine (npm start)', () => {
  it("keeps the time, level, function, message and the line's own fields; drops what only CloudWatch needs", () => {
    expect(terminalLine(powertoolsLine({ tenant: 'acme', person_id: 'p-1', attempt: 2 }))).toBe(
      '15:40:01.234 INFO  [ScreeningWorker] person restricted: sanctions list match tenant=acme person_id=p-1 attempt=2',
    );
  });

  it("leaves out the handler's own access line: the gateway writes one per request with the tenant", () => {
    expect(terminalLine(powertoolsLine({ message: 'request completed', status: 200 }))).toBeUndefined();
    expect(terminalLine(powertoolsLine({ message: 'request rejected', error_code: 'invalid_ssn' }))).toContain(
      'request rejected error_code=invalid_ssn',
    );
  });

  it('shows nested values as JSON and passes lines that are not JSON objects through', () => {
    expect(terminalLine(powertoolsLine({ level: 'ERROR', error: { name: 'Error', message: 'boom' } }))).toMatch(
      /^15:40:01\.234 ERROR \[ScreeningWorker\] .* error=\{"name":"Error","message":"boom"\}$/,
    );
    expect(terminalLine('plain text')).toBe('plain text');
    expect(terminalLine('[1,2]')).toBe('[1,2]');
  });

  it('drops queue plumbing: the worker shown as the function, the message id, a first receive (a retry keeps its count)', () => {
    const line = (receiveCount: number) =>
      terminalLine(
        powertoolsLine({
          worker: 'screening-worker',
          message_id: 'm-1',
          receive_count: receiveCount,
          person_id: 'p-1',
        }),
      );
    expect(line(1)).toBe('15:40:01.234 INFO  [ScreeningWorker] person restricted: sanctions list match person_id=p-1');
    expect(line(3)).toBe(
      '15:40:01.234 INFO  [ScreeningWorker] person restricted: sanctions list match receive_count=3 person_id=p-1',
    );
  });

  it('writes a webhook delivery attempt like an access line: event, attempt, status or error, latency, tenant', () => {
    const attempt = (fields: Record<string, unknown>) =>
      terminalLine(
        powertoolsLine({
          function_name: 'WebhookDeliveryWorker',
          message: 'webhook delivery attempt',
          worker: 'webhook-delivery',
          message_id: 'm-1',
          receive_count: 1,
          tenant: 'acme',
          event_id: 'e-1',
          configuration_id: 'c-1',
          attempt: 2,
          success: false,
          ...fields,
        }),
      );
    expect(attempt({ status_code: 204, latency_ms: 39, success: true })).toBe(
      '15:40:01.234 INFO  [WebhookDeliveryWorker] webhook e-1 attempt 2 -> 204 39 ms tenant=acme',
    );
    expect(attempt({ latency_ms: 10_000, error: 'timed out after 10000 ms' })).toBe(
      '15:40:01.234 INFO  [WebhookDeliveryWorker] webhook e-1 attempt 2 -> no answer 10000 ms error="timed out after 10000 ms" tenant=acme',
    );
  });
});
