import { ConfigError } from '#shared/config';
import { IdentityNoticeIgnored, IdentityNoticeRefused } from '#shared/identity-vendor/identity-vendor';
import { identityVendor } from '#shared/identity-vendor/index';
import type { Logger } from '#shared/logger';
import { readSignedNotice } from '#shared/provider-notices';
import { messageQueue } from '#shared/queue/index';
import type { IdentificationMessage } from './identification-message';

/**
 * A notice the identity vendor sent to its webhook route (docs/deploy.md#identity-vendor-plaid):
 * read with the vendor's signature scheme (one it did not sign answers 401
 * `invalid_signature`, and nothing is queued), the check it names read again by id from
 * the vendor, and the person's identification queued at once: the worker reads the check's
 * answer and settles the person, or does nothing for a person no longer waiting for it. The
 * tenant and person come from the vendor's record of the check, never from the body. A
 * notice about nothing of the service's answers 200 and is counted. Taking one twice
 * queues one identification more, which finds the person settled and does nothing.
 */
export async function takeIdentityNotice(
  body: string,
  headers: Readonly<Record<string, string | undefined>>,
  logger: Logger,
): Promise<number> {
  const vendor = identityVendor();
  const readNotice = vendor.readNotice?.bind(vendor);
  if (!readNotice) throw new ConfigError(`the ${vendor.name} identity vendor sends no notices`);
  const notices = await readSignedNotice(
    () => readNotice(body, headers),
    {
      refused: IdentityNoticeRefused,
      ignored: IdentityNoticeIgnored,
      metric: 'IdentityNoticeIgnored',
      signer: `the ${vendor.name} identity vendor`,
    },
    logger,
  );
  const messages = notices.map((notice) => {
    const message: IdentificationMessage = { tenant: notice.tenant, id: notice.id, identity_rev: notice.identityRev };
    return { id: notice.id, body: message };
  });
  if (messages.length > 0) await messageQueue().send('identification', messages);
  logger.info('identity notice taken', { vendor: vendor.name, identifications: messages.length });
  return messages.length;
}
