import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import type { IdentityData } from '#domain/person';
import { MAX_PENDING_LOOKS } from '#functions/persons/identify-person';
import { documentClient } from '#shared/db/document-client';
import { personKeys } from '#shared/db/persons/keys';
import { setDependencies } from '#shared/dependencies';
import type { IdentityCheckRef, IdentityVendor, VendorAnswer } from '#shared/identity-vendor/identity-vendor';
import { captureMetrics, countOf } from '#test/support/metrics';
import { personBody, usePersonsRuntime } from './support';

/**
 * Service-KYC with a vendor that may answer later (docs/api.md#identification): a pending
 * check keeps the person `created` with the vendor's id kept, the next look reads that
 * check by id (never a second one), a failing vendor costs time, not the person.
 */
const env = usePersonsRuntime();
const metrics = captureMetrics();

/** A vendor answering from a script, recording every call (the data it was sent, and which check). */
function scriptedVendor(answer: (check: IdentityCheckRef, call: number) => VendorAnswer | Error) {
  const calls: { data: IdentityData; check: IdentityCheckRef }[] = [];
  const vendor: IdentityVendor = {
    name: 'scripted',
    async verify(data, check) {
      calls.push({ data, check });
      const next = answer(check, calls.length);
      if (next instanceof Error) throw next;
      return next;
    },
  };
  setDependencies({ identityVendor: vendor });
  return calls;
}
afterEach(() => setDependencies({ identityVendor: undefined }));

async function posted(body = personBody()) {
  const response = await env.alice.post('/persons', body);
  expect(response.status).toBe(200);
  await env.runtime.settle(20_000);
  return response.body.person.id as string;
}
const person = async (id: string) => (await env.alice.get(`/persons/${id}`)).body.person;
const stored = async (id: string) =>
  (
    await documentClient().send(
      new GetCommand({ TableName: env.runtime.tableName, Key: personKeys.person('tenant-alice', id) }),
    )
  ).Item as Record<string, unknown>;

describe('identification with an identity vendor', () => {
  it('sends a person the service rejects on its own data to no vendor', async () => {
    const calls = scriptedVendor(() => ({ reasons: [] }));
    const id = await posted(personBody({ date_of_birth: '2020-01-01' }));
    expect((await person(id)).status_reasons.map((r: { reason_code: string }) => r.reason_code)).toEqual([
      'ineligible_age',
    ]);
    expect(calls).toEqual([]);
  });

  it('keeps a person created while the vendor’s check is pending, then reads that check by id, and keeps its id', async () => {
    const calls = scriptedVendor((check) =>
      check.reference
        ? { reasons: [], reference: check.reference }
        : { pending: true, vendor: 'scripted', reference: 'idv_1' },
    );
    const id = await posted();
    expect((await person(id)).status).toBe('verified');
    expect(calls.map((call) => call.check.reference)).toEqual([undefined, 'idv_1']);
    expect(calls[0]?.check).toMatchObject({ tenant: 'tenant-alice', id, identityRev: 1 });
    expect(calls[0]?.data).toMatchObject({ ssn: '123456789', date_of_birth: '1990-04-12' });
    expect((await stored(id)).identity_check).toEqual({
      vendor: 'scripted',
      reference: 'idv_1',
      identity_rev: 1,
      looks: 0,
    });
    expect(await person(id)).not.toHaveProperty('identity_check');
    expect(countOf(metrics, 'IdentityCheckPending')).toBe(1);
  });

  it('never asks for a second check on the automatic retry: the same check is read again by its id', async () => {
    const calls = scriptedVendor((check) => ({ reasons: ['invalid_ssn'], reference: check.reference ?? 'idv_2' }));
    const id = await posted();
    const rejected = await person(id);
    expect(rejected.status).toBe('rejected');
    expect((await stored(id)).identification_attempts).toBe(2);
    expect(calls.map((call) => call.check.reference)).toEqual([undefined, 'idv_2']);
  });

  it('leaves the person created, never rejected, while the vendor fails: the message is retried, then dead-lettered', async () => {
    const calls = scriptedVendor(() => Object.assign(new Error('vendor down'), { name: 'ServiceUnavailable' }));
    const deadLetters = env.runtime.queues.deadLetterQueue('identification');
    const before = deadLetters.contents().length;
    const id = await posted();
    const stillCreated = await person(id);
    expect(stillCreated.status).toBe('created');
    expect(stillCreated).not.toHaveProperty('status_reasons');
    expect(calls.length).toBe(5);
    expect(calls.every((call) => call.check.identityRev === 1 && call.check.reference === undefined)).toBe(true);
    expect(deadLetters.contents().length).toBe(before + 1);
  });

  it(`stops looking after ${MAX_PENDING_LOOKS} looks at a check still pending, the person created (unchanged to its partner), and counts it`, async () => {
    const calls = scriptedVendor(() => ({ pending: true, vendor: 'scripted', reference: 'idv_3' }));
    const id = await posted();
    const answered = await person(id);
    expect(answered.status).toBe('created');
    // A look is the service's own bookkeeping: nothing a partner reads changed, so neither did updated_at.
    expect(answered.updated_at).toBe(answered.created_at);
    expect(calls.length).toBe(MAX_PENDING_LOOKS + 1);
    expect((await stored(id)).identity_check).toMatchObject({ reference: 'idv_3', looks: MAX_PENDING_LOOKS });
    expect(countOf(metrics, 'IdentityCheckStalled')).toBe(1);
  });
});
