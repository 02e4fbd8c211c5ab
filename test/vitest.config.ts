import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Three tiers, one command (`npm test`). Integration tests share one DynamoDB Local
 * process started by the global setup; each test file creates its own table.
 */
/**
 * A failing assertion prints the whole value it expected and got, never `{ …(3) }`: the docs
 * checks and the leak checks name the figure to write or the file to fix in it. Every
 * project carries it (an inline project does not inherit the root's test options).
 */
const chaiConfig = { truncateThreshold: 0 };

export default defineConfig({
  // The repository root: test paths below are relative to it.
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    // grant-audit-setup: one directory per run where each test file notes the grants its
    // functions used, for the `audit` project's reverse check.
    globalSetup: ['test/node-version.ts', 'test/grant-audit-setup.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          chaiConfig,
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          chaiConfig,
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/integration/global-setup.ts'],
          setupFiles: ['test/integration/grant-check.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'infra',
          chaiConfig,
          include: ['test/infra/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          // Bundling every function for real runs in a beforeAll.
          hookTimeout: 120_000,
          env: { CDK_VALIDATION: 'false' },
        },
      },
      {
        test: {
          // Reads what the unit and integration files noted, so it runs after every other
          // project (a later group); in a run without both it skips (test/audit/grants-used.test.ts).
          name: 'audit',
          chaiConfig,
          include: ['test/audit/**/*.test.ts'],
          environment: 'node',
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
