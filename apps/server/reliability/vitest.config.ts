import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// @conversa/shared as TypeScript source, also for the global setup (which does not see the `source` condition).
const sharedSource = fileURLToPath(new URL('../../../packages/shared/src/index.ts', import.meta.url));

/**
 * The reliability tier (`npm run test:reliability`): crash and outage tests against the built server (dist/) on
 * PostgreSQL, replay races, the route-walking isolation suite and property-based fuzzing on the in-process app.
 * Files run one after another: the crash and outage files start servers and a private PostgreSQL of their own.
 */
// The in-process files run on PostgreSQL (real concurrency for the race tests), on a template of their own so a
// parallel `npm test` on conversa_test is never disturbed.
process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/conversa_rel';

export default defineConfig({
  root: new URL('..', import.meta.url).pathname,
  resolve: { conditions: ['source'], alias: { '@conversa/shared': sharedSource } },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['reliability/**/*.test.ts'],
    globalSetup: ['src/test/global-setup.ts'],
    setupFiles: ['src/test/outbound-setup.ts'],
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
