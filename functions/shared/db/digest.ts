import { createHash } from 'node:crypto';

/** A short one-way digest for values that must not appear in keys (account numbers, references). */
export const digest = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex').slice(0, 32);
