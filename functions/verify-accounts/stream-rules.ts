import { verifyAccountStatusChanged } from '#domain/verify-account';
import { toAccount } from '#shared/db/verify-accounts/item';
import type { StreamAction, StreamRule } from '#shared/stream/rules';
import { accountUpdated } from './events';

/**
 * What a change of a verify account asks for: a new account, or one whose debit check was
 * restarted (`debit_status` back to `pending` on a settled account), goes to the
 * verification queue; a change of any status field becomes a `verify_account_updated` event.
 */
export const verifyAccountStreamRule: StreamRule = ({ eventName, tenant, oldImage, newImage }) => {
  const id = String(newImage.id);
  const verify: StreamAction = { kind: 'enqueue', queue: 'verification', message: { id, body: { tenant, id } } };
  if (eventName === 'INSERT') return [verify];
  if (eventName !== 'MODIFY' || !oldImage) return [];
  const actions: StreamAction[] = [];
  if (debitCheckRestarted(oldImage, newImage)) actions.push(verify);
  if (verifyAccountStatusChanged(oldImage, newImage)) {
    actions.push({ kind: 'record-event', tenant, envelope: accountUpdated(toAccount(newImage)) });
  }
  return actions;
};

const debitCheckRestarted = (before: Record<string, unknown>, after: Record<string, unknown>) =>
  after.debit_status === 'pending' && before.debit_status !== 'pending' && after.verification_status !== 'pending';
