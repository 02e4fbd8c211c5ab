import { GenerateDataKeyWithoutPlaintextCommand, KMSClient } from '@aws-sdk/client-kms';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { DATA_KEY_BYTES, DATA_KEYS, type DataKeySpec } from '#shared/data-key/index';

/** The cipher key's ARN, the custom resource's one property. */
interface DataKeyProperties {
  readonly ServiceToken: string;
  readonly KeyArn: string;
}

export type DataKeyEvent = CloudFormationCustomResourceEvent<DataKeyProperties>;

let kms: KMSClient | undefined;

/**
 * A data key's custom resource (lib/constructs/data-key.ts: the digest key, the field key;
 * docs/data-model.md#digests), answering CloudFormation itself (a `PUT` of the outcome to
 * the event's pre-signed URL). Which key it is follows from the resource's type
 * (`Custom::DigestKey` → purpose `digest-key`, `DATA_KEYS`), which no update can change.
 * Created: KMS generates 32 random bytes under the cipher key and the key's purpose
 * and returns only their ciphertext, which becomes the resource's physical id (its `Ref`
 * carries it to the functions' environment as it is; no binary passes through a text
 * conversion). Updated or deleted: the physical id is answered unchanged and KMS is not
 * called, so no deploy can replace the key every stored digest or sealed field depends
 * on. A failure is answered as FAILED, so CloudFormation never waits for an answer that
 * will not come.
 */
export async function handler(event: DataKeyEvent): Promise<void> {
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

async function physicalIdOf(event: DataKeyEvent): Promise<string> {
  if (event.RequestType !== 'Create') return event.PhysicalResourceId;
  const spec = specOf(event.ResourceType);
  kms ??= new KMSClient({});
  const out = await kms.send(
    new GenerateDataKeyWithoutPlaintextCommand({
      KeyId: event.ResourceProperties.KeyArn,
      NumberOfBytes: DATA_KEY_BYTES,
      EncryptionContext: { purpose: spec.purpose },
    }),
  );
  if (!out.CiphertextBlob) throw new Error(`KMS returned no ciphertext for the ${spec.name}`);
  return Buffer.from(out.CiphertextBlob).toString('base64');
}

function specOf(resourceType: string): DataKeySpec {
  const spec = Object.values(DATA_KEYS).find((candidate) => candidate.resourceType === resourceType);
  if (!spec) throw new Error(`no data key is of type ${resourceType}`);
  return spec;
}
