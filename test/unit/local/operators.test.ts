import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCAL_OPERATORS } from '#lib/local/operators';
import { REPO_ROOT } from '#lib/repo-root';

/**
 * The local runtime registers its operators as a stack registers context `operators`
 * (docs/local.md#operators): the review routes serve them alone, so the console's operator
 * and the one the docs mint a token for must be among them.
 */
describe('the local runtime’s operators', () => {
  it('include the console’s operator client, whose token the page asks for to show and decide hits', () => {
    const api = readFileSync(join(REPO_ROOT, 'lib/local/console/api.js'), 'utf8');
    const consoleOperator = /export const OPERATOR_CLIENT = '([^']+)'/.exec(api)?.[1];

    expect(consoleOperator).toBeDefined();
    expect(LOCAL_OPERATORS).toContain(consoleOperator);
  });

  it('include `ops`, which docs/local.md and `npm run token -- --help` mint an operator token for', () => {
    expect(LOCAL_OPERATORS).toContain('ops');
    expect(readFileSync(join(REPO_ROOT, 'docs/local.md'), 'utf8')).toContain(
      'npm run --silent token -- --tenant ops --scope review:screening',
    );
  });
});
