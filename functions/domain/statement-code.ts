import { randomInt, timingSafeEqual } from 'node:crypto';
import {
  checksControl,
  STATEMENT_CODE_ATTEMPTS,
  STATEMENT_CODE_LIFETIME_MS,
  type VerifyAccount,
} from './verify-account';

/**
 * A keyed one-way function to hex (the service's digest key, docs/data-model.md#digests):
 * a code has 36^4 values, so an unkeyed hash of it would be reversed at once.
 */
export type CodeDigest = (value: string) => string;

/**
 * Account control by statement code (docs/api.md#control). Only a keyed digest of the code
 * is stored; a submission is compared case-insensitively and in constant time.
 */
export const hashStatementCode = (code: string, digest: CodeDigest): string => digest(code.toUpperCase());

/** The characters of a statement code: upper case, as a submission is compared case-insensitively. */
export const STATEMENT_CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const STATEMENT_CODE_LENGTH = 4;

/** A fresh code for a statement credit, from a cryptographic source: a guessable code proves no control. */
export const newStatementCode = (): string =>
  Array.from(
    { length: STATEMENT_CODE_LENGTH },
    () => STATEMENT_CODE_ALPHABET[randomInt(STATEMENT_CODE_ALPHABET.length)],
  ).join('');

export function statementCodeMatches(submitted: string, storedHash: string, digest: CodeDigest): boolean {
  const a = Buffer.from(hashStatementCode(submitted, digest), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

export type ControlDecision =
  | { kind: 'not_requested' }
  | { kind: 'already_valid' }
  | { kind: 'too_many_attempts' }
  | { kind: 'canceled' }
  | { kind: 'expired' }
  | { kind: 'not_sent' }
  | { kind: 'correct' }
  | { kind: 'incorrect'; attempts: number; attemptsRemaining: number; cancels: boolean };

/** Whether a code sent at `sentAt` has expired by `now` (the daily schedule then cancels control). */
export const statementCodeExpired = (sentAt: string, now: Date): boolean =>
  now.getTime() - new Date(sentAt).getTime() >= STATEMENT_CODE_LIFETIME_MS;

/** What a statement-code submission does to this account. Pure: the caller stores it. */
export function decideControlSubmission(
  account: VerifyAccount,
  submitted: string,
  now: Date,
  digest: CodeDigest,
): ControlDecision {
  if (!checksControl(account.type)) return { kind: 'not_requested' };
  if (account.control_status === 'valid') return { kind: 'already_valid' };
  if (account.control_attempts >= STATEMENT_CODE_ATTEMPTS) return { kind: 'too_many_attempts' };
  if (account.control_status === 'canceled') return { kind: 'canceled' };
  if (!account.statement_code_sent_at || !account.statement_code_hash) return { kind: 'not_sent' };
  if (statementCodeExpired(account.statement_code_sent_at, now)) return { kind: 'expired' };
  if (statementCodeMatches(submitted, account.statement_code_hash, digest)) return { kind: 'correct' };
  const attempts = account.control_attempts + 1;
  const attemptsRemaining = STATEMENT_CODE_ATTEMPTS - attempts;
  return { kind: 'incorrect', attempts, attemptsRemaining, cancels: attemptsRemaining === 0 };
}
