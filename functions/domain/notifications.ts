import type { VerifyAccount } from './verify-account';

/** An email to an account holder, as the domain writes it and a notifier sends it. */
export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
}

/**
 * The email to an account holder once the statement-code credit is on its way. It shows
 * only the account number's last four digits and never the code itself: the code must
 * be read on the statement, which is what proves control of the account.
 */
export function statementCodeSentEmail(account: VerifyAccount & { email: string }): EmailMessage {
  const lastFour = account.account_number.slice(-4);
  const sender = account.sender_name ?? 'your service provider';
  return {
    to: account.email,
    subject: 'A small deposit is on its way to your bank account',
    text: [
      `Hello ${account.account_holder_name},`,
      '',
      `${sender} sent a deposit of $0.01 to your account ending in ${lastFour}.`,
      'Its description on your bank statement holds a 4-character code. Enter that code',
      `where ${sender} asks for it to confirm that the account is yours.`,
      '',
      'The code expires 5 days after the deposit was sent.',
    ].join('\n'),
  };
}
