import { verifyAccountStatusChanged } from '#domain/verify-account';
import { toAccount } from '#shared/db/verify-accounts/item';
import type { StreamAction, StreamRule } from '#shared/stream/rules';
import type { AccountMessage } from './account-message';
import { accountUpdated } from './event-kinds';

/**
 * What a change of a verify account asks for: a new account, or one whose debit check was
 * restarted (`debit_status` back to `pending` on a settled account), goes to the
 * verification queue; a statement code just sent to an account with an email goes to the
 * statement-code-emails queue (the holder's email, sent by its own worker so the
 * verification worker carries no SES client); a change of any status field becomes a
 * `verify_account_updated` event.
 */
export const verifyAccountStreamRule: StreamRule = ({ eventName, tenant, oldImage, newImage }) => {
  const id = String(newImage.id);
  const body: AccountMessage = { tenant, id };
  const verify: StreamAction = { kind: 'enqueue', queue: 'verification', message: { id, body } };
  if (eventName === 'INSERT') return [verify];
  if (eventName !== 'MODIFY' || !oldImage) return [];
  const actions: StreamAction[] = [];
  if (debitCheckRestarted(oldImage, newImage)) actions.push(verify);
  if (statementCodeSent(oldImage, newImage)) {
    actions.push({ kind: 'enqueue', queue: 'statementCodeEmails', message: { id, body } });
  }
  if (verifyAccountStatusChanged(oldImage, newImage)) {
    actions.push({ kind: 'record-event', tenant, envelope: accountUpdated(toAccount(newImage)) });
  }
  return actions;
};

const debitCheckRestarted = (before: Record<string, unknown>, after: Record<string, unknown>) =>
  after.debit_status === 'pending' && before.debit_status !== 'pending' && after.verification_status !== 'pending';

/** The code is sent once per account (the verification worker sets `statement_code_sent_at` once). */
const statementCodeSent = (before: Record<string, unknown>, after: Record<string, unknown>) =>
  Boolean(after.email && after.statement_code_sent_at && !before.statement_code_sent_at);
