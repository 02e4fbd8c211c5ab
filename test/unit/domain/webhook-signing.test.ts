import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, signatureOf, webhookHeaders } from '#domain/webhook-signing';

// The partner's view: the Standard Webhooks reference package refuses timestamps more than
// five minutes from its clock, so deliveries here are signed "now".
const now = () => Math.floor(Date.now() / 1000);
const id = '6f1c2d4e-0b7a-5c3e-9f21-3a4b5c6d7e8f';
const body = JSON.stringify({
  event_id: id,
  event_type: 'person_verified',
  created_at: '2025-01-02T03:04:05.678Z',
  event_data: { person: { first_name: 'Zoë', last_name: 'Ōkubo 🏦' } },
});

describe('webhook signing secrets', () => {
  it('generates whsec_ and the base64 of 24 random bytes', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(24);
  });

  it('generates a different secret each time', () => {
    expect(generateWebhookSecret()).not.toBe(generateWebhookSecret());
  });

  it('is accepted as a key by the standardwebhooks package', () => {
    expect(() => new Webhook(generateWebhookSecret())).not.toThrow();
  });
});

describe('webhook signatures (Standard Webhooks)', () => {
  it('is byte-identical to the standardwebhooks package, non-ASCII body included', () => {
    const secret = generateWebhookSecret();
    const timestamp = now();
    expect(signatureOf(secret, id, timestamp, body)).toBe(
      new Webhook(secret).sign(id, new Date(timestamp * 1000), body),
    );
  });

  it('signs "<id>.<timestamp>.<body>" with HMAC-SHA256 keyed by the bytes after whsec_', () => {
    const key = Buffer.alloc(24, 7);
    const secret = `whsec_${key.toString('base64')}`;
    const expected = createExpected(key, `${id}.1700000000.${body}`);
    expect(signatureOf(secret, id, 1_700_000_000, body)).toBe(`v1,${expected}`);
  });

  it('refuses a secret whose key is empty, which anybody could forge', () => {
    expect(() => signatureOf('whsec_', id, now(), body)).toThrow();
  });

  it('refuses a fractional timestamp, which receivers would read as another second', () => {
    expect(() => signatureOf(generateWebhookSecret(), id, 1_700_000_000.5, body)).toThrow(RangeError);
  });
});

describe('webhook headers', () => {
  it('carry the id, the timestamp in unix seconds, the signature and a JSON content type', () => {
    const secret = generateWebhookSecret();
    const timestamp = now();
    expect(webhookHeaders([secret], id, timestamp, body)).toEqual({
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureOf(secret, id, timestamp, body),
      'content-type': 'application/json',
    });
  });

  it('verify with the standardwebhooks package for a single secret', () => {
    const secret = generateWebhookSecret();
    const headers = webhookHeaders([secret], id, now(), body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('carry one signature per secret during a rotation, and each secret verifies on its own', () => {
    const [fresh, previous] = [generateWebhookSecret(), generateWebhookSecret()];
    const headers = webhookHeaders([fresh, previous], id, now(), body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(fresh).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('do not verify with a secret that did not sign', () => {
    const headers = webhookHeaders([generateWebhookSecret()], id, now(), body);
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow('No matching signature found');
  });

  it('do not verify a tampered body', () => {
    const secret = generateWebhookSecret();
    const headers = webhookHeaders([secret], id, now(), body);
    const tampered = body.replace('person_verified', 'person_rejected');
    expect(() => new Webhook(secret).verify(tampered, headers)).toThrow('No matching signature found');
  });

  it('do not verify a tampered timestamp, even one within the tolerance', () => {
    const secret = generateWebhookSecret();
    const timestamp = now();
    const headers = { ...webhookHeaders([secret], id, timestamp, body), 'webhook-timestamp': String(timestamp - 1) };
    expect(() => new Webhook(secret).verify(body, headers)).toThrow('No matching signature found');
  });

  it('do not verify a tampered id', () => {
    const secret = generateWebhookSecret();
    const headers = { ...webhookHeaders([secret], id, now(), body), 'webhook-id': 'another-id' };
    expect(() => new Webhook(secret).verify(body, headers)).toThrow('No matching signature found');
  });

  it('are never sent unsigned', () => {
    expect(() => webhookHeaders([], id, now(), body)).toThrow();
  });
});

function createExpected(key: Buffer, message: string): string {
  return createHmac('sha256', key).update(message).digest('base64');
}
