import { describe, expect, it } from 'vitest';
import { MINIMUM_NODE, nodeVersionProblem, startFailure } from '../../../lib/local/preflight';

describe('npm start preflight', () => {
  it('refuses a Node.js older than the minimum with one sentence and the fix', () => {
    expect(nodeVersionProblem('18.20.4')).toMatch(/needs Node\.js 20\.19\.0 or newer, and this is 18\.20\.4: install/);
    expect(nodeVersionProblem('20.18.9')).toBeDefined();
    expect(nodeVersionProblem('v20.9.0')).toBeDefined();
  });

  it('accepts the minimum and anything newer', () => {
    expect(nodeVersionProblem(MINIMUM_NODE)).toBeUndefined();
    expect(nodeVersionProblem('20.19.1')).toBeUndefined();
    expect(nodeVersionProblem('22.0.0')).toBeUndefined();
    expect(nodeVersionProblem(process.versions.node)).toBeUndefined();
  });

  it('matches package.json engines', async () => {
    const { default: pkg } = await import('../../../package.json', { with: { type: 'json' } });
    expect(pkg.engines.node).toBe(`>=${MINIMUM_NODE.replace(/\.0$/, '')}`);
  });

  it('says a port in use in one sentence with the fix, and other failures by their message, no stack', () => {
    const inUse = Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' });
    expect(startFailure(inUse, 3000)).toBe(
      'Port 3000 is in use: stop the other server, or start on another port with PORT=3001 npm start.',
    );
    const java = new Error('DynamoDB Local needs Java 17 or newer, but `java` is not on the PATH.');
    expect(startFailure(java, 3000)).toMatch(/^The local runtime could not start: DynamoDB Local needs Java 17/);
    expect(startFailure(java, 3000)).not.toContain('    at ');
  });
});
