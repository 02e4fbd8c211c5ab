import { OPERATOR_SCOPES } from '#shared/scopes';
import { maybeJson } from './json-value';
import { clientIdsOf, PARTNER_NAME } from './partners';

// The context key `operators` (docs/deploy.md#operators), read and validated: the service's
// own staff, who hold the operator scopes and nothing else. Read with the rest of the
// identity context in ./identity.ts.

/**
 * An operator of the service itself (compliance staff reviewing screening hits): a client
 * holding the operator scopes (`OPERATOR_SCOPES`) and nothing else, never a partner. Its
 * name is its own tenant for the HTTP stack's records (rate limit, idempotency, list
 * positions); it owns no partner data.
 */
export interface OperatorConfig {
  /** Letters, digits, `-` and `_`; no partner may have the same name. Cognito mode: also the app client's name. */
  readonly name: string;
  /**
   * Cognito mode: further client ids of this operator (credential rotation).
   * @default - none
   */
  readonly aliases?: readonly string[];
  /**
   * External-issuer mode: the operator's client ids at that issuer, which must grant them
   * the operator scopes only.
   * @default - none
   */
  readonly clientIds?: readonly string[];
}

/** Reads the operators, each client id listed once across everyone (`seen`); throws naming the entry on bad input. */
export function parseOperators(value: unknown, seen: Set<string>): OperatorConfig[] {
  if (value === undefined) return [];
  const list = typeof value === 'string' ? maybeJson(value) : value;
  if (!Array.isArray(list)) throw new Error('context "operators" must be an array of { name, aliases?, clientIds? }');
  const names = new Set<string>();
  return list.map((entry, i) => {
    const where = `context "operators"[${i}]`;
    if (typeof entry !== 'object' || entry === null) throw new Error(`${where} must be an object`);
    const { name, aliases, clientIds, ...other } = entry as Record<string, unknown>;
    if (typeof name !== 'string' || !PARTNER_NAME.test(name)) {
      throw new Error(`${where}.name must be 1-64 letters, digits, "-" or "_"`);
    }
    if (names.has(name)) throw new Error(`${where}: operator "${name}" is listed twice`);
    names.add(name);
    const unknown = Object.keys(other)[0];
    if (unknown !== undefined) {
      throw new Error(
        `${where}.${unknown} is not an operator setting (an operator holds ${OPERATOR_SCOPES.join(', ')} and nothing else): name, aliases?, clientIds?`,
      );
    }
    return { name, ...clientIdsOf({ aliases, clientIds }, where, seen) };
  });
}
