import { ConfigError } from '#shared/config';
import { AppError } from '#shared/errors';
import { IdentityNoticeIgnored, IdentityNoticeRefused } from '#shared/identity-vendor/identity-vendor';
import { identityVendor } from '#shared/identity-vendor/index';
import type { Logger } from '#shared/logger';
import { metrics } from '#shared/metrics';
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
  if (!vendor.readNotice) throw new ConfigError(`the ${vendor.name} identity vendor sends no notices`);
  let notices: Awaited<ReturnType<NonNullable<typeof vendor.readNotice>>>;
  try {
    notices = await vendor.readNotice(body, headers);
  } catch (error) {
    if (error instanceof IdentityNoticeIgnored) {
      metrics().count('IdentityNoticeIgnored');
      metrics().metadata('reason', error.reason);
      logger.info('identity notice about nothing of this service’s: ignored', { reason: error.reason });
      return 0;
    }
    if (!(error instanceof IdentityNoticeRefused)) throw error;
    throw new AppError(
      401,
      'invalid_signature',
      `the notice is not signed by the ${vendor.name} identity vendor`,
      undefined,
      {
        cause: error,
      },
    );
  }
  const messages = notices.map((notice) => {
    const message: IdentificationMessage = { tenant: notice.tenant, id: notice.id, identity_rev: notice.identityRev };
    return { id: notice.id, body: message };
  });
  if (messages.length > 0) await messageQueue().send('identification', messages);
  logger.info('identity notice taken', { vendor: vendor.name, identifications: messages.length });
  return messages.length;
}
