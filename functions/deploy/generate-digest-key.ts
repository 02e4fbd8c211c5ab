import { GenerateDataKeyWithoutPlaintextCommand, KMSClient } from '@aws-sdk/client-kms';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { DIGEST_KEY_BYTES, DIGEST_KEY_CONTEXT } from '#shared/digest/digest-key';

/** The cipher key's ARN, the custom resource's one property. */
interface DigestKeyProperties {
  readonly ServiceToken: string;
  readonly KeyArn: string;
}

export type DigestKeyEvent = CloudFormationCustomResourceEvent<DigestKeyProperties>;

let kms: KMSClient | undefined;

/**
 * The digest key's custom resource (lib/constructs/digest-key.ts, docs/data-model.md#digests),
 * answering CloudFormation itself (a `PUT` of the outcome to the event's pre-signed URL).
 * Created: KMS generates 32 random bytes under the cipher key and the `digest-key` purpose
 * and returns only their ciphertext, which becomes the resource's physical id (its `Ref`
 * carries it to the functions' environment as it is; no binary passes through a text
 * conversion). Updated or deleted: the physical id is answered unchanged and KMS is not
 * called, so no deploy can replace the key every stored digest depends on. A failure is
 * answered as FAILED, so CloudFormation never waits for an answer that will not come.
 */
export async function handler(event: DigestKeyEvent): Promise<void> {
  let outcome: { Status: 'SUCCESS' | 'FAILED'; PhysicalResourceId: string; Reason?: string };
  try {
    outcome = { Status: 'SUCCESS', PhysicalResourceId: await physicalIdOf(event) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    // A failed create has no id yet; CloudFormation then deletes this placeholder, which changes nothing.
    const id = event.RequestType === 'Create' ? `failed-${event.RequestId}` : event.PhysicalResourceId;
    outcome = { Status: 'FAILED', PhysicalResourceId: id, Reason: reason };
  }
  const body = JSON.stringify({
    ...outcome,
    StackId: event.StackId,
    RequestId: event.RequestId,
    LogicalResourceId: event.LogicalResourceId,
  });
  // The pre-signed URL is signed without a content type: send an empty one, as AWS's cfn-response does.
  const response = await fetch(event.ResponseURL, { method: 'PUT', headers: { 'content-type': '' }, body });
  if (!response.ok) throw new Error(`CloudFormation did not take the answer: HTTP ${response.status}`);
}

async function physicalIdOf(event: DigestKeyEvent): Promise<string> {
  if (event.RequestType !== 'Create') return event.PhysicalResourceId;
  kms ??= new KMSClient({});
  const out = await kms.send(
    new GenerateDataKeyWithoutPlaintextCommand({
      KeyId: event.ResourceProperties.KeyArn,
      NumberOfBytes: DIGEST_KEY_BYTES,
      EncryptionContext: { ...DIGEST_KEY_CONTEXT },
    }),
  );
  if (!out.CiphertextBlob) throw new Error('KMS returned no ciphertext for the digest key');
  return Buffer.from(out.CiphertextBlob).toString('base64');
}
