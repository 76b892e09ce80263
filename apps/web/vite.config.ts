import { defineConfig, defaultClientConditions } from 'vite';
import react from '@vitejs/plugin-react';
import { versionPlugin } from './version-plugin.ts';

const API_TARGET = process.env.VITE_DEV_API_TARGET ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react(), versionPlugin()],
  // `source` makes @conversa/shared resolve to its TypeScript source: no shared build needed in dev.
  resolve: { conditions: ['source', ...defaultClientConditions] },
  server: {
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: true },
      '/socket.io': { target: API_TARGET, ws: true, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 900,
  },
});
