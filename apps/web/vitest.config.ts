import { defineConfig } from 'vitest/config';
import { defaultClientConditions } from 'vite';
import react from '@vitejs/plugin-react';
import { versionPlugin } from './version-plugin.ts';

export default defineConfig({
  plugins: [react(), versionPlugin('test')],
  resolve: { conditions: ['source', ...defaultClientConditions] },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    restoreMocks: true,
    // A test that walks a form clicks through several screens; on a loaded two-core machine that took over the
    // default 5 s (the waits themselves are 10 s, test/setup.ts).
    testTimeout: 30_000,
  },
});
