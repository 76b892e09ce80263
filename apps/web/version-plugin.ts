/**
 * Gives every build an id: defined as `__APP_VERSION__` in the bundle and written to `dist/version.json`, so a
 * running client can notice that a newer build is being served and reload (product-spec §2 "Page behaviour").
 */
import type { Plugin } from 'vite';

export function versionPlugin(buildId: string = process.env.APP_VERSION ?? Date.now().toString(36)): Plugin {
  return {
    name: 'conversa-version',
    config: () => ({ define: { __APP_VERSION__: JSON.stringify(buildId) } }),
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'version.json', source: `${JSON.stringify({ version: buildId })}\n` });
    },
  };
}
