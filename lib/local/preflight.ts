// What `npm start` checks before loading anything else, so that a machine that cannot run
// the service gets one sentence and the fix rather than a stack trace. Dependency-free:
// it must run on the Node.js it may refuse.

/**
 * The Node.js the service runs on: Lambda's (`nodejs24.x`). `npm ci` installs it from the
 * npm registry (the `node` devDependency) and `npm start` runs on it whatever Node runs npm,
 * so only a runtime started some other way (or installed without its scripts) is refused.
 */
export const MINIMUM_NODE = '24.0.0';

/** A sentence and its fix when `version` (e.g. `process.versions.node`) is older than `minimum`. */
export function nodeVersionProblem(version: string, minimum: string = MINIMUM_NODE): string | undefined {
  const parse = (v: string) => v.replace(/^v/, '').split('.').map(Number);
  const [have, need] = [parse(version), parse(minimum)];
  for (let i = 0; i < need.length; i++) {
    const a = have[i] ?? 0;
    const b = need[i] ?? 0;
    if (a > b) return undefined;
    if (a < b) {
      return `The service needs Node.js ${minimum} or newer, and this is ${version}: start it with \`npm start\`, which runs the Node.js that \`npm ci\` installs (run npm ci again if it was installed without scripts).`;
    }
  }
  return undefined;
}

/** The one line `npm start` prints when the runtime cannot start. */
export function startFailure(error: NodeJS.ErrnoException, port: number): string {
  if (error.code === 'EADDRINUSE') {
    return `Port ${port} is in use: stop the other server, or start on another port with PORT=${port + 1} npm start.`;
  }
  return `The local runtime could not start: ${error.message}${process.env.LOG_LEVEL === 'debug' ? `\n${error.stack}` : ' (LOG_LEVEL=debug shows the stack)'}`;
}
