import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// @conversa/shared as TypeScript source, also for the global setup (which does not see the `source` condition), so a
// fresh clone tests without building shared first.
const sharedSource = fileURLToPath(new URL('../../packages/shared/src/index.ts', import.meta.url));

export default defineConfig({
  resolve: { conditions: ['source'], alias: { '@conversa/shared': sharedSource } },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['src/**/*.test.ts'],
    globalSetup: ['src/test/global-setup.ts'],
    // Provider clients built without a checked fetch may reach their loopback simulators (src/test/outbound-setup.ts).
    setupFiles: ['src/test/outbound-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
