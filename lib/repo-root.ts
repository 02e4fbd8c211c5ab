import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository root. Handler modules in the route table and consumer list are paths
 * relative to it, and the default state directory lives under it.
 */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
