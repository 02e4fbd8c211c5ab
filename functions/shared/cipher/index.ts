import { KMSClient } from '@aws-sdk/client-kms';
import { ENV, optionalEnv, requireEnv } from '#shared/config';
import { port } from '#shared/dependencies';
import type { Cipher } from './cipher';
import { KmsCipher } from './kms-cipher';
import { LocalCipher } from './local-cipher';

/** KMS in AWS; AES-256-GCM under `LOCAL_CIPHER_KEY` in local mode. */
export const cipher = /* @__PURE__ */ port('cipher', () => {
  const localKey = optionalEnv(ENV.localCipherKey);
  if (localKey) return new LocalCipher(localKey);
  return new KmsCipher(new KMSClient({}), requireEnv(ENV.cipherKeyArn));
});

declare module '#shared/dependencies' {
  interface Dependencies {
    cipher: Cipher;
  }
}
