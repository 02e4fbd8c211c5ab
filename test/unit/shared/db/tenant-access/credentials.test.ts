import { describe, expect, it } from 'vitest';
import {
  MAX_SESSIONS,
  REFRESH_BEFORE_MS,
  type SessionCredentials,
  TenantCredentials,
} from '#shared/db/tenant-access/credentials';

// Each tenant's credentials, assumed once per warm container and replaced before they lapse
// (functions/shared/db/tenant-access/credentials.ts): in steady state no call is added.

const ROLE = 'arn:aws:iam::123456789012:role/tenant';
const HOUR = 3_600_000;

/** A stand-in for STS: counts assumptions per tenant, each valid for an hour from the clock. */
function fakeSts(clock: { now: number }) {
  const calls: string[] = [];
  let failNext = false;
  const assume = async (_role: string, tenant: string): Promise<SessionCredentials> => {
    calls.push(tenant);
    if (failNext) {
      failNext = false;
      throw new Error('AccessDenied');
    }
    return {
      accessKeyId: `ASIA-${tenant}-${calls.length}`,
      secretAccessKey: 'secret',
      sessionToken: 'token',
      expiration: new Date(clock.now + HOUR),
    };
  };
  return { assume, calls, failOnce: () => (failNext = true) };
}

describe('TenantCredentials', () => {
  it('assumes the role once per tenant and keeps the credentials while they hold', async () => {
    const clock = { now: 0 };
    const sts = fakeSts(clock);
    const credentials = new TenantCredentials(sts.assume, () => clock.now);
    const first = await credentials.credentials(ROLE, 'acme');
    for (let i = 0; i < 5; i++) expect(await credentials.credentials(ROLE, 'acme')).toBe(first);
    await credentials.credentials(ROLE, 'globex');
    expect(sts.calls).toEqual(['acme', 'globex']);
  });

  it('shares one assumption among concurrent first calls for a tenant', async () => {
    const clock = { now: 0 };
    const sts = fakeSts(clock);
    const credentials = new TenantCredentials(sts.assume, () => clock.now);
    const all = await Promise.all(Array.from({ length: 10 }, () => credentials.credentials(ROLE, 'acme')));
    expect(new Set(all.map((c) => c.accessKeyId)).size).toBe(1);
    expect(sts.calls).toEqual(['acme']);
  });

  it('assumes again shortly before the credentials lapse, not after', async () => {
    const clock = { now: 0 };
    const sts = fakeSts(clock);
    const credentials = new TenantCredentials(sts.assume, () => clock.now);
    const first = await credentials.credentials(ROLE, 'acme');
    clock.now = HOUR - REFRESH_BEFORE_MS - 1;
    expect(await credentials.credentials(ROLE, 'acme')).toBe(first);
    clock.now = HOUR - REFRESH_BEFORE_MS;
    const second = await credentials.credentials(ROLE, 'acme');
    expect(second).not.toBe(first);
    expect(second.expiration.getTime()).toBeGreaterThan(first.expiration.getTime());
    expect(sts.calls).toEqual(['acme', 'acme']);
  });

  it('keeps no failed assumption: the next call assumes again', async () => {
    const clock = { now: 0 };
    const sts = fakeSts(clock);
    const credentials = new TenantCredentials(sts.assume, () => clock.now);
    sts.failOnce();
    await expect(credentials.credentials(ROLE, 'acme')).rejects.toThrow('AccessDenied');
    await expect(credentials.credentials(ROLE, 'acme')).resolves.toMatchObject({ accessKeyId: 'ASIA-acme-2' });
  });

  it('keeps at most MAX_SESSIONS tenants, pushing out the least recently used', async () => {
    const clock = { now: 0 };
    const sts = fakeSts(clock);
    const credentials = new TenantCredentials(sts.assume, () => clock.now);
    for (let i = 0; i < MAX_SESSIONS; i++) await credentials.credentials(ROLE, `t${i}`);
    await credentials.credentials(ROLE, 't0'); // t0 is now the most recent; t1 the least
    await credentials.credentials(ROLE, 'newcomer');
    expect(credentials.size).toBe(MAX_SESSIONS);
    const before = sts.calls.length;
    await credentials.credentials(ROLE, 't0');
    expect(sts.calls.length).toBe(before);
    await credentials.credentials(ROLE, 't1');
    expect(sts.calls.slice(before)).toEqual(['t1']);
  });

  it('keeps each role apart: a function assumes only its own', async () => {
    const clock = { now: 0 };
    const sts = fakeSts(clock);
    const credentials = new TenantCredentials(sts.assume, () => clock.now);
    await credentials.credentials(`${ROLE}-a`, 'acme');
    await credentials.credentials(`${ROLE}-b`, 'acme');
    expect(sts.calls).toEqual(['acme', 'acme']);
  });
});
