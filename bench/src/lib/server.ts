/** Starts the production build (`node apps/server/dist/main.js`) as a child process and samples its memory. */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const SERVER_ENTRY = path.join(REPO_ROOT, 'apps/server/dist/main.js');

export interface BenchServer {
  baseUrl: string;
  pid: number;
  stop(): Promise<void>;
}

export async function startServer(options: {
  port: number;
  dataDir: string;
  databaseUrl?: string;
  telegramApiRoot: string;
  /** The Baileys simulator: the server's Baileys sockets are the test fake, connected to it. */
  baileysSimulatorUrl?: string;
  /** The Graph API simulator (WhatsApp Cloud API channels). */
  metaGraphUrl?: string;
  logFile: string;
  /** Write a V8 CPU profile of the server into this folder (read it with Chrome DevTools or bench/src/profile.ts). */
  cpuProfileDir?: string;
}): Promise<BenchServer> {
  if (!fs.existsSync(SERVER_ENTRY)) throw new Error(`${SERVER_ENTRY} is missing: run npm run build first`);
  const baseUrl = `http://127.0.0.1:${options.port}`;
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'JWT_SECRET', 'NODE_ENV', 'REALTIME_ADAPTER']) delete env[name];
  Object.assign(env, {
    NODE_ENV: 'production',
    PORT: String(options.port),
    HOST: '127.0.0.1',
    DATA_DIR: options.dataDir,
    PUBLIC_URL: baseUrl,
    LOGIN_CAPTCHA: 'false',
    // The login scenario's virtual clients present their own X-Forwarded-For (the server trusts no proxy by default).
    TRUST_PROXY: 'true',
    LOG_LEVEL: 'warn',
    TELEGRAM_API_ROOT: options.telegramApiRoot,
    // The gateway simulators (Evolution's remotePath) listen on loopback: the checked fetch may reach it here.
    OUTBOUND_ALLOW: '127.0.0.0/8,::1',
    // Tokens taken at the start must outlive the whole run.
    ACCESS_TOKEN_TTL: '7200',
  });
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  if (options.metaGraphUrl) env.META_GRAPH_URL = options.metaGraphUrl;
  if (options.baileysSimulatorUrl) {
    env.BAILEYS_SOCKET_MODULE = path.join(
      REPO_ROOT,
      'apps/server/dist/modules/channels/providers/baileys/baileys.fake-socket.js',
    );
    env.BAILEYS_SIMULATOR_URL = options.baileysSimulatorUrl;
  }
  fs.mkdirSync(path.dirname(options.logFile), { recursive: true });
  const log = fs.openSync(options.logFile, 'w');
  const flags = options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : [];
  const child = spawn(process.execPath, [...flags, SERVER_ENTRY], { cwd: REPO_ROOT, env, stdio: ['ignore', log, log] });
  fs.closeSync(log);
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const stop = async () => {
    process.removeListener('exit', killOnExit);
    if (exited) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exit;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exited) throw new Error(`server exited before it was healthy; log: ${options.logFile}`);
    const response = await fetch(`${baseUrl}/api/health`).catch(() => undefined);
    if (response?.status === 200) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server was not healthy within 120 s; log: ${options.logFile}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { baseUrl, pid: child.pid!, stop };
}

/** Samples VmRSS of a process every 200 ms until stopped; answers the peak and mean in MB. */
export function sampleRss(pid: number): { stop(): { peakMb: number; meanMb: number } } {
  const samples: number[] = [];
  const read = () => {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      if (kb > 0) samples.push(kb / 1024);
    } catch {
      // The process is gone: nothing to sample.
    }
  };
  read();
  const timer = setInterval(read, 200);
  return {
    stop() {
      clearInterval(timer);
      read();
      const peak = Math.max(0, ...samples);
      const mean = samples.reduce((s, v) => s + v, 0) / Math.max(1, samples.length);
      return { peakMb: Math.round(peak), meanMb: Math.round(mean) };
    },
  };
}
