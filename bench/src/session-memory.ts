/**
 * `node --expose-gc --import tsx bench/src/session-memory.ts [--clients 3] [--sockets 50] [--settle 8]`
 *
 * An approximation of the memory one connected number costs per stateful channel type, measured on this machine
 * without WhatsApp (no internet here):
 *
 * - `whatsapp` (whatsapp-web.js): the real library `Client` with the launch options the driver uses
 *   (wwebjs.client.ts `browserOptions`: the system chromium, headless, --no-sandbox as root). WhatsApp Web cannot
 *   load, so the library's own local version cache serves a small stand-in page at https://web.whatsapp.com/ and the
 *   library stops in its injection step, waiting for WhatsApp Web's code to appear. What is measured is chromium with
 *   one puppeteer page per client (browser, renderer, GPU/utility processes): RSS and PSS summed over each client's
 *   process tree. WhatsApp Web itself (its JavaScript heap and IndexedDB cache, typically hundreds of MB) comes on top
 *   and cannot be measured here: read these figures as a floor.
 * - `baileys`: the real `makeWASocket` (not the test fake, which holds none of the library's state) connected to a
 *   local WebSocket that accepts and never answers, so each socket holds the library's structures before login
 *   (noise handler, event buffer, signal repository). Node heap and RSS growth per socket after a forced GC. A logged-in
 *   socket keeps more (signal sessions, app-state keys, caches): again a floor.
 *
 * Prints one JSON document and writes it to bench/results/session-memory/<date>.json. Never part of npm test.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import makeWASocket, { initAuthCreds } from 'baileys';
import { pino } from 'pino';
import type WAWebJS from 'whatsapp-web.js';
import { WebSocketServer } from 'ws';
import { browserOptions, loadWwebjs } from '../../apps/server/src/modules/channels/providers/wwebjs/wwebjs.client.js';

const { values: args } = parseArgs({
  options: {
    clients: { type: 'string', default: '3' },
    sockets: { type: 'string', default: '50' },
    settle: { type: 'string', default: '8' },
    chromium: { type: 'string', default: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
  },
});
const CLIENTS = Number(args.clients);
const SOCKETS = Number(args.sockets);
const SETTLE_MS = Number(args.settle) * 1000;
const MB = 1024 * 1024;
const mb = (bytes: number) => Math.round((bytes / MB) * 10) / 10;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- process trees ------------------------------------------------------------------------------------------------

function childrenOf(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

function treeOf(pid: number): number[] {
  const children = childrenOf();
  const tree: number[] = [];
  const stack = [pid];
  while (stack.length) {
    const next = stack.pop()!;
    tree.push(next);
    stack.push(...(children.get(next) ?? []));
  }
  return tree;
}

/**
 * kB fields of /proc/<pid>/status and smaps_rollup: resident (shared pages counted in every process), proportional
 * (shared pages split between their users) and unique (private pages only: what one more client adds at least).
 */
function memoryOf(pid: number): { rss: number; pss: number; uss: number } {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kb = (text: string, field: string) =>
      Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0) * 1024;
    return {
      rss: kb(status, 'VmRSS'),
      pss: kb(rollup, 'Pss'),
      uss: kb(rollup, 'Private_Clean') + kb(rollup, 'Private_Dirty'),
    };
  } catch {
    return { rss: 0, pss: 0, uss: 0 };
  }
}

function treeMemory(pid: number) {
  const pids = treeOf(pid);
  const zero = { rss: 0, pss: 0, uss: 0 };
  const sum = pids
    .map(memoryOf)
    .reduce((a, b) => ({ rss: a.rss + b.rss, pss: a.pss + b.pss, uss: a.uss + b.uss }), zero);
  return { processes: pids.length, rssMb: mb(sum.rss), pssMb: mb(sum.pss), ussMb: mb(sum.uss) };
}

// ---- whatsapp-web.js ----------------------------------------------------------------------------------------------

const STAND_IN_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>WhatsApp</title></head>
<body><div id="app">stand-in for WhatsApp Web (no internet on the bench machine)</div></body></html>`;

async function measureWwebjs() {
  const lib = await loadWwebjs();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wwebjs-memory-'));
  fs.mkdirSync(path.join(work, 'cache'));
  fs.writeFileSync(path.join(work, 'cache', 'bench.html'), STAND_IN_PAGE);
  const clients: WAWebJS.Client[] = [];
  const perClient: ReturnType<typeof treeMemory>[] = [];
  const stages: string[] = [];
  let destroying = false;
  try {
    for (let i = 0; i < CLIENTS; i++) {
      const client = new lib.Client({
        ...browserOptions({ chromiumPath: args.chromium!, runningAsRoot: process.getuid?.() === 0, proxy: null }),
        webVersion: 'bench',
        webVersionCache: { type: 'local', path: path.join(work, 'cache'), strict: true },
        authTimeoutMs: 600_000,
      });
      clients.push(client);
      void client.initialize().catch((error: unknown) => {
        if (!destroying) stages.push(`client ${i}: ${String(error)}`);
      });
      const deadline = Date.now() + 60_000;
      while (!client.pupPage && Date.now() < deadline) await sleep(100);
      if (!client.pupPage) throw new Error(`client ${i}: chromium did not start`);
      await client.pupPage.waitForFunction('document.readyState === "complete"', { timeout: 60_000 });
      const waiting = await client.pupPage.evaluate('document.title');
      stages.push(`client ${i}: page "${String(waiting)}" loaded, library waiting for WhatsApp Web in inject()`);
    }
    await sleep(SETTLE_MS);
    for (const client of clients) perClient.push(treeMemory(client.pupBrowser!.process()!.pid!));
  } finally {
    destroying = true;
    await Promise.allSettled(clients.map((client) => client.destroy()));
    fs.rmSync(work, { recursive: true, force: true });
  }
  const average = (key: 'rssMb' | 'pssMb' | 'ussMb') =>
    mb((perClient.reduce((sum, c) => sum + c[key], 0) / perClient.length) * MB);
  let chromiumVersion = 'unknown';
  try {
    chromiumVersion = execFileSync(args.chromium!, ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    // keep unknown
  }
  return {
    library: `whatsapp-web.js ${(lib as unknown as { version?: string }).version ?? ''}`.trim(),
    chromium: chromiumVersion,
    clients: CLIENTS,
    perClient,
    averageRssMb: average('rssMb'),
    averagePssMb: average('pssMb'),
    averageUssMb: average('ussMb'),
    stages,
  };
}

// ---- baileys ------------------------------------------------------------------------------------------------------

async function measureBaileys() {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  let connections = 0;
  server.on('connection', () => connections++);
  const { port } = server.address() as { port: number };
  const logger = pino({ level: 'silent' });
  const settleGc = async () => {
    for (let i = 0; i < 3; i++) {
      gc();
      await sleep(200);
    }
  };
  await settleGc();
  const before = process.memoryUsage();
  const sockets: ReturnType<typeof makeWASocket>[] = [];
  for (let i = 0; i < SOCKETS; i++) {
    sockets.push(
      makeWASocket({
        auth: { creds: initAuthCreds(), keys: { get: async () => ({}), set: async () => undefined } },
        waWebSocketUrl: `ws://127.0.0.1:${port}`,
        logger,
        connectTimeoutMs: 600_000,
        keepAliveIntervalMs: 600_000,
        markOnlineOnConnect: false,
        syncFullHistory: false,
      }),
    );
  }
  await sleep(SETTLE_MS);
  await settleGc();
  const after = process.memoryUsage();
  await Promise.allSettled(sockets.map((socket) => socket.end(undefined)));
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    sockets: SOCKETS,
    connected: connections,
    heapPerSocketMb: mb((after.heapUsed - before.heapUsed) / SOCKETS),
    rssPerSocketMb: mb((after.rss - before.rss) / SOCKETS),
    heapUsedMb: { before: mb(before.heapUsed), after: mb(after.heapUsed) },
    rssMb: { before: mb(before.rss), after: mb(after.rss) },
  };
}

const result = {
  date: new Date().toISOString(),
  machine: { cpus: os.cpus().length, memoryMb: mb(os.totalmem()), node: process.version, platform: os.platform() },
  note: 'approximation: WhatsApp itself is unreachable here; see the header of bench/src/session-memory.ts',
  whatsapp: await measureWwebjs(),
  baileys: await measureBaileys(),
};
console.log(JSON.stringify(result, null, 2));
const out = path.join(import.meta.dirname, '..', 'results', 'session-memory');
fs.mkdirSync(out, { recursive: true });
fs.writeFileSync(path.join(out, `${result.date.slice(0, 10)}.json`), `${JSON.stringify(result, null, 2)}\n`);
process.exit(0);
