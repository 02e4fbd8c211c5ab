import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GenerateDataKeyWithoutPlaintextCommand, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type DataKeyEvent, handler } from '#functions/deploy/handlers/generate-data-key';

const kms = mockClient(KMSClient);
const KEY_ARN = 'arn:aws:kms:eu-west-1:123456789012:key/cipher';
/** A ciphertext with bytes that are no valid UTF-8: it must reach CloudFormation unchanged. */
const CIPHERTEXT = Buffer.from([0x01, 0xff, 0xfe, 0x80, 0x00, 0xc3, 0x28, 0x7f]);

/** Stands in for CloudFormation's pre-signed response URL: keeps what was PUT. */
let server: Server;
let answers: { method?: string; contentType?: string; body: Record<string, unknown> }[];
let responseUrl: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      answers.push({ method: request.method, contentType: request.headers['content-type'], body: JSON.parse(body) });
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  responseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/response`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  answers = [];
  kms.reset();
  kms.on(GenerateDataKeyWithoutPlaintextCommand).resolves({ CiphertextBlob: CIPHERTEXT });
});

const event = (requestType: 'Create' | 'Update' | 'Delete', physicalId?: string) =>
  ({
    RequestType: requestType,
    ServiceToken: 'arn:aws:lambda:eu-west-1:123456789012:function:generator',
    ResponseURL: responseUrl,
    StackId: 'arn:aws:cloudformation:eu-west-1:123456789012:stack/VerifyService/1',
    RequestId: 'request-1',
    LogicalResourceId: 'DigestKey01D849A7',
    ResourceType: 'Custom::DigestKey',
    ResourceProperties: { ServiceToken: 'token', KeyArn: KEY_ARN },
    ...(physicalId && { PhysicalResourceId: physicalId }),
    ...(requestType === 'Update' && { OldResourceProperties: { ServiceToken: 'token', KeyArn: KEY_ARN } }),
  }) as DataKeyEvent;

describe('the data key generator', () => {
  it('has KMS generate 32 bytes under the cipher key and the digest-key purpose, and answers their ciphertext as the physical id, byte for byte', async () => {
    await handler(event('Create'));

    expect(kms.commandCalls(GenerateDataKeyWithoutPlaintextCommand)[0]?.args[0].input).toEqual({
      KeyId: KEY_ARN,
      NumberOfBytes: 32,
      EncryptionContext: { purpose: 'digest-key' },
    });
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ method: 'PUT', contentType: '' });
    expect(answers[0]?.body).toEqual({
      Status: 'SUCCESS',
      PhysicalResourceId: CIPHERTEXT.toString('base64'),
      StackId: 'arn:aws:cloudformation:eu-west-1:123456789012:stack/VerifyService/1',
      RequestId: 'request-1',
      LogicalResourceId: 'DigestKey01D849A7',
    });
    expect(Buffer.from(String(answers[0]?.body.PhysicalResourceId), 'base64').equals(CIPHERTEXT)).toBe(true);
  });

  it.each(['Update', 'Delete'] as const)(
    'answers a %s with the ciphertext it was created with and never asks KMS for another key',
    async (requestType) => {
      await handler(event(requestType, 'the-ciphertext'));

      expect(kms.commandCalls(GenerateDataKeyWithoutPlaintextCommand)).toHaveLength(0);
      expect(answers[0]?.body).toMatchObject({ Status: 'SUCCESS', PhysicalResourceId: 'the-ciphertext' });
    },
  );

  it('answers FAILED with the reason when KMS refuses, so CloudFormation does not wait for an answer', async () => {
    kms.on(GenerateDataKeyWithoutPlaintextCommand).rejects(new Error('AccessDeniedException'));

    await handler(event('Create'));

    expect(answers[0]?.body).toMatchObject({ Status: 'FAILED', Reason: 'AccessDeniedException' });
  });

  it('generates the field key under the field-key purpose: the purpose follows from the resource type', async () => {
    await handler({
      ...event('Create'),
      ResourceType: 'Custom::FieldKey',
      LogicalResourceId: 'FieldKey',
    } as DataKeyEvent);

    expect(kms.commandCalls(GenerateDataKeyWithoutPlaintextCommand)[0]?.args[0].input).toEqual({
      KeyId: KEY_ARN,
      NumberOfBytes: 32,
      EncryptionContext: { purpose: 'field-key' },
    });
    expect(answers[0]?.body).toMatchObject({ Status: 'SUCCESS', PhysicalResourceId: CIPHERTEXT.toString('base64') });
  });

  it('answers FAILED for a resource type that names no data key, without asking KMS', async () => {
    await handler({ ...event('Create'), ResourceType: 'Custom::OtherKey' } as DataKeyEvent);

    expect(kms.commandCalls(GenerateDataKeyWithoutPlaintextCommand)).toHaveLength(0);
    expect(answers[0]?.body).toMatchObject({ Status: 'FAILED', Reason: 'no data key is of type Custom::OtherKey' });
  });
});
