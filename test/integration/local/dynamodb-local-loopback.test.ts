import { request } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DynamoDbLocal, startDynamoDbLocal } from '#lib/local/dynamodb-local';

/**
 * docs/local.md#dynamodb-local-on-loopback: DynamoDB Local takes any signature, so whoever
 * reaches its port reads and writes the whole local table, past the JWT and the IAM
 * stand-in. As `npm start` runs it (startDynamoDbLocal), it is reachable from this machine
 * only: a connection to the machine's own non-loopback addresses is refused, and a request
 * that names another host than a loopback one (a web page that rebinds its own name to
 * 127.0.0.1) is refused too.
 *
 * The probe connects to this machine's own addresses, nothing else.
 */
let dynamo: DynamoDbLocal;
beforeAll(async () => {
  dynamo = await startDynamoDbLocal();
});
afterAll(() => dynamo?.stop());

/** This machine's addresses other than loopback (an IPv6 link-local one needs a zone: left out). */
const ownAddresses = Object.values(networkInterfaces())
  .flatMap((addresses) => addresses ?? [])
  .filter((address) => !address.internal && !address.address.toLowerCase().startsWith('fe80:'))
  .map((address) => address.address);

/** What a TCP connection to host:port gets: accepted, refused, or nothing within the time. */
function probe(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (result: string) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(2_000, () => done('no answer'));
    socket.once('connect', () => done('accepted'));
    socket.once('error', (error: NodeJS.ErrnoException) => done(`refused (${error.code})`));
  });
}

/** A browser's CORS preflight for ListTables from `origin`: the headers it is answered with. */
function preflight(origin: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const sent = request(
      {
        host: '127.0.0.1',
        port: dynamo.port,
        method: 'OPTIONS',
        path: '/',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type,x-amz-target',
        },
      },
      (answer) => {
        answer.resume();
        answer.on('end', () => resolve(answer.headers));
      },
    );
    sent.on('error', reject);
    sent.end();
  });
}

/** ListTables as any client sends it, with a signature DynamoDB Local does not check. */
function listTables(host: string, headers: Record<string, string> = {}): Promise<{ status?: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(
      {
        host,
        port: dynamo.port,
        method: 'POST',
        path: '/',
        headers: {
          'content-type': 'application/x-amz-json-1.0',
          'x-amz-target': 'DynamoDB_20120810.ListTables',
          authorization:
            'AWS4-HMAC-SHA256 Credential=anyone/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=00',
          ...headers,
        },
      },
      (answer) => {
        let body = '';
        answer.setEncoding('utf8');
        answer.on('data', (chunk: string) => {
          body += chunk;
        });
        answer.on('end', () => resolve({ status: answer.statusCode, body }));
      },
    );
    sent.on('error', reject);
    sent.end('{}');
  });
}

describe('DynamoDB Local as npm start runs it', () => {
  it('answers on 127.0.0.1, addressed as 127.0.0.1 or localhost', async () => {
    const port = dynamo.port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, '127.0.0.1']) {
      const answer = await listTables('127.0.0.1', { host });
      expect(answer.status, `Host: ${host}`).toBe(200);
      expect(answer.body).toContain('TableNames');
    }
  });

  if (ownAddresses.length === 0) {
    it.skip('cannot probe: this machine has no non-loopback address, so no other host could reach it either', () => {});
  } else {
    it(`refuses connections on this machine's own non-loopback addresses (${ownAddresses.join(', ')})`, async () => {
      for (const address of ownAddresses) {
        expect(await probe(address, dynamo.port), `${address} port ${dynamo.port}`).not.toBe('accepted');
      }
    });
  }

  it('refuses a request that names another host (a page that rebinds its own name to 127.0.0.1): 403, no table listed', async () => {
    for (const host of [`rebound.example:${dynamo.port}`, 'rebound.example', `192.0.2.1:${dynamo.port}`]) {
      const answer = await listTables('127.0.0.1', { host });
      expect(answer.status, `Host: ${host}`).toBe(403);
      expect(answer.body).not.toContain('TableNames');
    }
  });

  it('approves no page of another origin (ListTables needs headers that take a preflight)', async () => {
    const answer = await preflight('https://attacker.example');
    expect(answer['access-control-allow-origin']).toBeUndefined();
  });
});
