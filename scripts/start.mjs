#!/usr/bin/env node
// `npm start`: builds whatever is missing (shared, server, web), then runs the server, which serves web + API on one
// port with the embedded database unless DATABASE_URL is set.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const parts = [
  { workspace: '@conversa/shared', output: 'packages/shared/dist/index.js' },
  { workspace: '@conversa/server', output: 'apps/server/dist/main.js' },
  { workspace: '@conversa/web', output: 'apps/web/dist/index.html' },
];

for (const part of parts) {
  if (fs.existsSync(path.join(root, part.output))) continue;
  console.log(`Building ${part.workspace} (first start)...`);
  const result = spawnSync(npm, ['run', 'build', '-w', part.workspace], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// Long URLs: some clients send a whole ticket as the query string of GET /tickets/{id} (client-contract §21.12).
const server = spawn(process.execPath, ['--max-http-header-size=65536', 'apps/server/dist/main.js'], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
