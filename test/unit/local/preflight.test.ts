import { describe, expect, it } from 'vitest';
import { MINIMUM_NODE, nodeVersionProblem, startFailure } from '#lib/local/preflight';

describe('npm start preflight', () => {
  it('refuses a Node.js older than the 24 that Lambda runs, with one sentence and the fix', () => {
    expect(nodeVersionProblem('20.20.2')).toMatch(
      /needs Node\.js 24\.0\.0 or newer, and this is 20\.20\.2: start it with `npm start`/,
    );
    expect(nodeVersionProblem('22.21.1')).toBeDefined();
    expect(nodeVersionProblem('v23.11.0')).toBeDefined();
  });

  it('accepts the minimum and anything newer, and so the Node.js these tests run on', () => {
    expect(nodeVersionProblem(MINIMUM_NODE)).toBeUndefined();
    expect(nodeVersionProblem('24.21.0')).toBeUndefined();
    expect(nodeVersionProblem('26.0.0')).toBeUndefined();
    expect(nodeVersionProblem(process.versions.node)).toBeUndefined();
  });

  it('asks for the Node.js that npm ci installs, while npm ci itself runs on any Node that can run npm', async () => {
    const { default: pkg } = await import('../../../package.json', { with: { type: 'json' } });
    const major = (range: string) => range.match(/\d+/)?.[0];
    expect(major(pkg.devDependencies.node)).toBe(major(MINIMUM_NODE));
    expect(pkg.engines.node).toBe('>=20');
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
