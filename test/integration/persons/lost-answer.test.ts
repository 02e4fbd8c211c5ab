import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ENTITY } from '#shared/db/entities';
import { losingTheAnswerOf } from '#test/support/lost-answer';
import { stopClock } from '#test/support/stopped-clock';
import { freshReference, personBody, usePersonsRuntime } from './support';

/**
 * A person's create whose write landed but whose answer was lost (the SDK's request timed
 * out after DynamoDB applied it) answers 5xx, and the partner retries with the same
 * Idempotency-Key (docs/api.md#retrying). The retry answers the person the first attempt
 * made, as a verify account's does, not `409 duplicate_customer_reference_id` for the
 * reference id its own first attempt took.
 */
const env = usePersonsRuntime();

const createLosingTheAnswer = (body: Record<string, unknown>, headers: Record<string, string>) =>
  losingTheAnswerOf(ENTITY.person, () => env.alice.post('/persons', body, { headers }));

describe("a person's create whose answer was lost", () => {
  it('answers the person the first attempt made to the retry with the same Idempotency-Key', async () => {
    const body = personBody();
    const headers = { 'Idempotency-Key': randomUUID() };
    expect((await createLosingTheAnswer(body, headers)).status).toBeGreaterThanOrEqual(500);

    const retry = await env.alice.post('/persons', body, { headers });
    expect(retry.status).toBe(200);
    expect(retry.body.person).toMatchObject({ customer_reference_id: body.customer_reference_id, status: 'created' });

    const listed = await env.alice.get(`/persons?customer_reference_id=${body.customer_reference_id}`);
    expect(listed.body.persons.map((person: { id: string }) => person.id)).toEqual([retry.body.person.id]);
  });

  it('is not taken by another request sent with the same key: that answers 422 idempotency_key_reused', async () => {
    const body = personBody();
    const headers = { 'Idempotency-Key': randomUUID() };
    expect((await createLosingTheAnswer(body, headers)).status).toBeGreaterThanOrEqual(500);

    const other = await env.alice.post('/persons', { ...body, first_name: 'Janet' }, { headers });
    expect(other.status).toBe(422);
    expect(other.body.error_code).toBe('idempotency_key_reused');
  });

  it('still answers 409 duplicate_customer_reference_id to a request with another key for the same reference id', async () => {
    const body = personBody();
    expect((await createLosingTheAnswer(body, { 'Idempotency-Key': randomUUID() })).status).toBeGreaterThanOrEqual(500);

    const other = await env.alice.post('/persons', body, { headers: { 'Idempotency-Key': randomUUID() } });
    expect(other.status).toBe(409);
    expect(other.body.error_code).toBe('duplicate_customer_reference_id');
  });

  it('is a new request once the key is 24 hours old, as a key then is: it creates a new person', async () => {
    const headers = { 'Idempotency-Key': randomUUID() };
    const clock = stopClock();
    try {
      const first = await env.alice.post('/persons', personBody(), { headers });
      expect(first.status).toBe(200);
      clock.advance(25 * 60 * 60 * 1000);

      const again = await env.alice.post('/persons', personBody({ customer_reference_id: freshReference() }), {
        headers,
      });
      expect(again.status).toBe(200);
      expect(again.headers['idempotent-replayed']).toBeUndefined();
      expect(again.body.person.id).not.toBe(first.body.person.id);
    } finally {
      clock.restart();
    }
  });
});
