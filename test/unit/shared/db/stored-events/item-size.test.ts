import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerifyAccount } from '#domain/verify-account';
import { accountUpdated } from '#functions/verify-accounts/event-kinds';
import { StoredEventRepository } from '#shared/db/stored-events/repository';
import { resetDependencies, setDependencies } from '#shared/dependencies';
import { TEST_FIELD_CIPHER } from '#test/support/records';

// The event stores the account number sealed (docs/data-model.md#field-encryption): its size counts.
beforeAll(() => setDependencies({ fieldCipher: TEST_FIELD_CIPHER }));
afterAll(() => resetDependencies());

/**
 * DynamoDB bills a write per started KB of the item: the event and each delivery attempt
 * are written once per status change, so each stays one write unit for a typical
 * `verify_account_updated` (sizes by DynamoDB's rules: names and UTF-8 values, numbers by
 * digits, 3 bytes per map or list plus 1 per element).
 */
const ONE_WRITE_UNIT = 1024;

const valueSize = (value: unknown): number => {
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number') return Math.ceil(String(Math.abs(value)).replace('.', '').length / 2) + 1;
  if (typeof value === 'boolean' || value === null) return 1;
  if (Array.isArray(value)) return 3 + value.reduce((sum, element) => sum + 1 + valueSize(element), 0);
  if (typeof value === 'object') return 3 + attributesSize(value as Record<string, unknown>, 1);
  return 0;
};
const attributesSize = (item: Record<string, unknown>, perElement = 0): number =>
  Object.entries(item)
    .filter(([, value]) => value !== undefined)
    .reduce((sum, [name, value]) => sum + perElement + Buffer.byteLength(name) + valueSize(value), 0);

/** A settled individual account with every ownership match: the larger kind of status event. */
const account = {
  id: '6f1c2b9e-3d4a-4c5b-9e8f-0a1b2c3d4e5f',
  tenant: 'partner-acme-payroll',
  type: 'status',
  created_at: '2026-11-18T12:00:00.000Z',
  updated_at: '2026-11-18T12:00:01.234Z',
  account_number: '123456789012345',
  routing_number: '021000021',
  account_holder_name: 'Jane Quinn Doe-Smithson',
  verification_status: 'valid',
  ownership_status: 'full',
  debit_status: 'valid',
  estimated_verification_date: '2026-11-18T00:00:00.000Z',
  person: {
    first_name: 'Jane',
    last_name: 'Doe-Smithson',
    phone_number: '+14155550123',
    first_name_match: 'match',
    last_name_match: 'match',
    phone_number_match: 'match',
    ssn_match: 'match',
  },
  control_attempts: 0,
  version: 2,
} as unknown as VerifyAccount;

async function writtenItems() {
  const items: Record<string, unknown>[] = [];
  const db = {
    send: async (command: { input: { Item: Record<string, unknown> } }) => {
      items.push(command.input.Item);
      return {};
    },
  } as unknown as DynamoDBDocumentClient;
  const repository = new StoredEventRepository(db, 'table');
  const envelope = accountUpdated(account);
  await repository.store(account.tenant, envelope);
  await repository.recordAttempt(
    account.tenant,
    envelope.event_id,
    {
      at: '2026-11-18T12:00:02.345Z',
      url: 'https://hooks.partner-acme-payroll.example.com/orum/webhooks/verify-accounts',
      configuration_id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
      attempt: 7,
      latency_ms: 10_000,
      error: 'timed out after 10000 ms',
      final: true,
      redelivery: '0f1e2d3c-4b5a-4968-8776-655443322110',
    },
    1_797_595_202,
  );
  return items;
}

describe('event log item sizes', () => {
  it('a verify_account_updated event item is one write unit', async () => {
    const [event] = await writtenItems();
    expect(attributesSize(event)).toBeLessThan(ONE_WRITE_UNIT);
  });

  it('a delivery attempt item, even a redelivery’s final failed one, is one write unit', async () => {
    const [, attempt] = await writtenItems();
    expect(attributesSize(attempt)).toBeLessThan(ONE_WRITE_UNIT);
  });
});
