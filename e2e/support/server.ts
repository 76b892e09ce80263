/** Starts the built server (`node apps/server/dist/main.js`) as a child process and stops it. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, SERVER_ENTRY, SUPERADMIN_EMAIL, SUPERADMIN_PASSWORD, WEB_DIST } from './paths.js';

export interface RunningServer {
  baseUrl: string;
  port: number;
  dataDir: string;
  logFile: string;
  stop(): Promise<void>;
}

/**
 * Variables of the calling environment that would point the server elsewhere than its fresh embedded database
 * (NODE_ENV=test comes from vitest; the server runs as `npm start` runs it).
 */
const NOT_INHERITED = [
  'DATABASE_URL',
  'TEST_DATABASE_URL',
  'REDIS_URL',
  'JWT_SECRET',
  'JWT_REFRESH_SECRET',
  'NODE_ENV',
];

export async function startServer(options: {
  port: number;
  dataDir: string;
  smtpPort: number;
  logFile: string;
  /** Provider API roots pointed at local simulators (TELEGRAM_API_ROOT ...). */
  env?: Record<string, string>;
}): Promise<RunningServer> {
  if (!fs.existsSync(SERVER_ENTRY)) {
    throw new Error(`${SERVER_ENTRY} is missing: build first (npm run build)`);
  }
  const baseUrl = `http://127.0.0.1:${options.port}`;
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of NOT_INHERITED) delete env[name];
  Object.assign(env, {
    PORT: String(options.port),
    HOST: '127.0.0.1',
    DATA_DIR: options.dataDir,
    PUBLIC_URL: baseUrl,
    SMTP_URL: `smtp://127.0.0.1:${options.smtpPort}`,
    SEED_SUPERADMIN_EMAIL: SUPERADMIN_EMAIL,
    SEED_SUPERADMIN_PASSWORD: SUPERADMIN_PASSWORD,
    LOGIN_CAPTCHA: 'true',
    LOG_LEVEL: 'warn',
    // The simulators listen on loopback: the checked fetch of tenants' URLs may reach it here.
    OUTBOUND_ALLOW: '127.0.0.0/8,::1',
  });
  Object.assign(env, options.env);
  if (WEB_DIST) env.WEB_DIST = WEB_DIST;

  fs.mkdirSync(path.dirname(options.logFile), { recursive: true });
  const log = fs.openSync(options.logFile, 'w');
  const child: ChildProcess = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);

  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  let stopping = false;
  const exitPromise = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      // An exit the suite did not ask for explains every later ECONNREFUSED: say so in the log.
      if (!stopping) {
        const line = `[e2e] server exited unexpectedly at ${new Date().toISOString()}: code ${code}, signal ${signal}\n`;
        fs.appendFileSync(options.logFile, line);
        process.stderr.write(line);
      }
      resolve();
    });
  });
  // If the runner dies without its teardown, do not leave the server behind.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const stop = async () => {
    process.removeListener('exit', killOnExit);
    if (exited) return;
    stopping = true;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exitPromise;
    clearTimeout(timer);
  };

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (exited) {
      const tail = fs.readFileSync(options.logFile, 'utf8').slice(-4000);
      throw new Error(`server exited (${exited.code ?? exited.signal}) before it was healthy:\n${tail}`);
    }
    const response = await fetch(`${baseUrl}/api/health`).catch(() => undefined);
    if (response?.status === 200) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`GET ${baseUrl}/api/health did not answer 200 within 90 s; log: ${options.logFile}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { baseUrl, port: options.port, dataDir: options.dataDir, logFile: options.logFile, stop };
}
