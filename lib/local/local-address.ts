// Where `npm start` listens, for the commands that talk to a running one (bin/dead-letters.ts)
// without loading the runtime itself.

/** Loopback only: nothing the runtime serves is meant for another machine. */
export const LOCAL_HOST = '127.0.0.1';

export const DEFAULT_PORT = 3000;
