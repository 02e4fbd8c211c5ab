import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Three tiers, one command (`npm test`). Integration tests share one DynamoDB Local
 * process started by the global setup; each test file creates its own table.
 */
export default defineConfig({
  // The repository root: test paths below are relative to it.
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    globalSetup: ['test/node-version.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/integration/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          // Bundling every function for real runs in a beforeAll.
          hookTimeout: 120_000,
          env: { CDK_VALIDATION: 'false' },
        },
      },
    ],
  },
});
