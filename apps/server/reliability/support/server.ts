/**
 * The built server (`apps/server/dist/main.js`) as a child process that a test can kill -9 and start again on the
 * same database, port and data dir (so the JWT secret in DATA_DIR/secrets.json, and the tokens, survive).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, sleep } from './ports.js';

const SERVER_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SERVER_ENTRY = path.join(SERVER_ROOT, 'dist/main.js');
export const SUPERADMIN = { email: 'superadmin@reliability.test', password: 'Rel#Super123' };

/** Variables of the runner (vitest sets NODE_ENV=test) that must not reach the server. */
const NOT_INHERITED = ['DATABASE_URL', 'TEST_DATABASE_URL', 'REDIS_URL', 'JWT_SECRET', 'NODE_ENV', 'WEB_DIST'];

export interface ServerProcess {
  baseUrl: string;
  logFile: string;
  /** Spawns the server and waits until /api/health answers 200. */
  start(): Promise<void>;
  /** SIGKILL: no shutdown hook runs, in-flight requests and jobs die where they stand. */
  kill(): Promise<void>;
  /** SIGTERM (graceful), then removes the data dir. */
  stop(): Promise<void>;
  /** Whether the process is alive (an outage must not make it exit). */
  alive(): boolean;
  /** The running server's process id (its memory is read from /proc/<pid>/status). */
  pid(): number | undefined;
  /** The end of the server's log (for failure messages). */
  logTail(): string;
}

export async function serverProcess(env: Record<string, string>): Promise<ServerProcess> {
  if (!fs.existsSync(SERVER_ENTRY)) throw new Error(`${SERVER_ENTRY} is missing: run npm run build first`);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'conversa-rel-'));
  const logFile = path.join(dataDir, 'server.log');
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const name of NOT_INHERITED) delete childEnv[name];
  Object.assign(childEnv, {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: baseUrl,
    WEB_DIST: path.join(dataDir, 'no-web'),
    LOGIN_CAPTCHA: 'false',
    SEED_SUPERADMIN_EMAIL: SUPERADMIN.email,
    SEED_SUPERADMIN_PASSWORD: SUPERADMIN.password,
    LOG_LEVEL: 'warn',
    // The simulators listen on loopback: the checked fetch of tenants' URLs may reach it here.
    OUTBOUND_ALLOW: '127.0.0.0/8,::1',
    ...env,
  });

  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const killOnExit = () => child?.kill('SIGKILL');
  process.on('exit', killOnExit);

  const handle: ServerProcess = {
    baseUrl,
    logFile,
    async start() {
      const log = fs.openSync(logFile, 'a');
      const spawned = spawn(process.execPath, [SERVER_ENTRY], { env: childEnv, stdio: ['ignore', log, log] });
      fs.closeSync(log);
      child = spawned;
      let gone = false;
      exited = new Promise((resolve) =>
        spawned.once('exit', () => {
          gone = true;
          resolve();
        }),
      );
      const deadline = Date.now() + 60_000;
      for (;;) {
        if (gone) throw new Error(`server exited at start:\n${fs.readFileSync(logFile, 'utf8').slice(-3000)}`);
        const res = await fetch(`${baseUrl}/api/health`).catch(() => undefined);
        if (res?.status === 200) return;
        if (Date.now() > deadline) throw new Error(`server not healthy within 60 s; log ${logFile}`);
        await sleep(100);
      }
    },
    async kill() {
      child?.kill('SIGKILL');
      await exited;
    },
    async stop() {
      process.removeListener('exit', killOnExit);
      if (child && child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child?.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    alive: () => !!child && child.exitCode === null && child.signalCode === null,
    pid: () => child?.pid,
    logTail: () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-4000) : ''),
  };
  return handle;
}

/** Logs in as the seeded superadmin (tenant 1) and answers the Authorization header. */
export async function loginSuperadmin(baseUrl: string): Promise<{ authorization: string; userId: number }> {
  const res = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(SUPERADMIN),
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  const { token, userId } = (await res.json()) as { token: string; userId: number };
  return { authorization: `Bearer ${token}`, userId };
}

/** A JSON call to the API (path relative to /api). */
export async function api<T = unknown>(
  baseUrl: string,
  auth: { authorization: string; userId?: number },
  method: string,
  pathname: string,
  body?: unknown,
): Promise<{ status: number; json: T }> {
  const res = await fetch(`${baseUrl}/api${pathname}`, {
    method,
    headers: {
      authorization: auth.authorization,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : undefined) as T };
}

/**
 * Creates a Telegram channel through the API as `auth` and connects it (the simulator records the webhook the server
 * registered): answers the channel id and the webhook Telegram would call.
 */
export async function connectTelegramChannel(
  baseUrl: string,
  auth: { authorization: string },
  sim: { callsOf(method: string): { params: Record<string, unknown> }[] },
  channel: { name: string; token: string },
): Promise<{ channelId: number; webhook: { url: string; secret: string } }> {
  const created = await api<{ id: number }>(baseUrl, auth, 'POST', '/whatsapp', {
    name: channel.name,
    type: 'telegram',
    tokenTelegram: channel.token,
  });
  if (created.status !== 201) throw new Error(`channel not created: ${created.status}`);
  const started = await api(baseUrl, auth, 'POST', `/whatsappsession/${created.json.id}`);
  if (started.status !== 200) throw new Error(`channel not connected: ${started.status}`);
  const registration = sim.callsOf('setWebhook').at(-1)!;
  return {
    channelId: created.json.id,
    webhook: { url: String(registration.params.url), secret: String(registration.params.secret_token) },
  };
}
