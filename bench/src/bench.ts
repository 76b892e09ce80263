/**
 * `npm run bench -- [--db postgres|pglite] [--duration 20] [--connections 10] [--only a,b] ...`
 *
 * Seeds when needed (idempotent), starts the production build against the seeded database with the local Telegram
 * simulator as its Bot API, logs in through the API, and measures: the HTTP scenarios with autocannon, webhook
 * ingestion to the admin's socket event, and realtime fan-out to many sockets across tenants. Prints one table and
 * writes bench/results/<date>-<db>-<scenario>.json. Never part of npm test.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Socket } from 'socket.io-client';
import { openDatabase } from '../../apps/server/src/platform/db/client.js';
import { startTelegramSimulator } from '../../apps/server/src/modules/channels/providers/telegram/telegram.simulator.js';
import { startBaileysSimulator } from '../../apps/server/src/modules/channels/providers/baileys/baileys.simulator.js';
import { api, connectSocket, login, pool } from './lib/api.js';
import { readFacts, type BenchFacts, type BenchUser } from './lib/facts.js';
import { loginScenario, rotate, runHttp, type HttpResult, type HttpScenario } from './lib/http.js';
import { runFanout, runIngestion } from './lib/realtime.js';
import { connectBaileysChannel, removeBaileysChannel, runSessionIngestion } from './lib/sessions.js';
import {
  connectEvolutionChannel,
  connectWuzapiChannel,
  removeGatewayChannel,
  runGatewayIngestion,
  type GatewayChannel,
} from './lib/gateways.js';
import { startEvolutionSimulator } from '../../apps/server/src/modules/channels/providers/evolution/evolution.simulator.js';
import { startWuzapiSimulator } from '../../apps/server/src/modules/channels/providers/wuzapi/wuzapi.simulator.js';
import { startWabaSimulator } from '../../apps/server/src/modules/channels/providers/waba/waba.simulator.js';
import { connectWabaChannel } from './lib/waba.js';
import { activateBenchFlow } from './lib/chatflow.js';
import { machineFacts, measureCpuLoad, printTable, roundTripCost, writeResult, type Row } from './lib/report.js';
import { startServer } from './lib/server.js';
import { BENCH_PASSWORD, PROFILES, type Profile } from './seed-plan.js';
import { seed } from './seed.js';

const SCENARIOS = [
  'tickets-admin',
  'tickets-search',
  'tickets-search-text',
  'search-message',
  'tickets-agent',
  'messages',
  'contacts',
  'contacts-search',
  'login',
  'login-clients',
  'ingestion',
  'ingestion-baileys',
  'ingestion-evo',
  'ingestion-meow',
  'ingestion-waba',
  'ingestion-flow',
  'fanout',
] as const;

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'postgres' },
    'database-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/conversa_bench' },
    'data-dir': { type: 'string', default: process.env.DATA_DIR ?? './data' },
    profiles: { type: 'string', default: 'one-company,saas' },
    scale: { type: 'string', default: '1' },
    duration: { type: 'string', default: '20' },
    connections: { type: 'string', default: '10' },
    port: { type: 'string', default: '3917' },
    only: { type: 'string' },
    updates: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '50' },
    'new-share': { type: 'string', default: '0.5' },
    /** ingestion-waba: customer messages per Cloud API webhook POST (each with as many statuses). */
    'per-post': { type: 'string', default: '5' },
    sockets: { type: 'string', default: '1000' },
    'fanout-messages': { type: 'string', default: '200' },
    'fanout-rate': { type: 'string', default: '20' },
    search: { type: 'string', default: 'silva' },
    /** tickets-search-text and search-message: a word of the seeded message texts (no contact is named so). */
    'text-search': { type: 'string', default: 'campinas' },
    'cpu-prof': { type: 'string' },
  },
});

const db = args.db === 'pglite' ? 'pglite' : 'postgres';
const only = new Set(args.only ? args.only.split(',') : SCENARIOS);
const duration = Number(args.duration);
const connections = Number(args.connections);
const databaseUrl = db === 'postgres' ? args['database-url'] : undefined;
const dataDir = path.resolve(args['data-dir']);

async function databaseVersion(): Promise<string> {
  const handle = await openDatabase({ url: databaseUrl, dataDir });
  try {
    const { rows } = await handle.executeSql('SELECT version() AS v');
    return `${db}: ${String(rows[0]?.v).split(' on ')[0]}`;
  } finally {
    await handle.close();
  }
}

async function prepare(): Promise<BenchFacts> {
  for (const profile of args.profiles.split(',') as Profile[]) {
    if (!PROFILES.includes(profile)) throw new Error(`unknown profile ${profile}`);
    await seed({ profile, databaseUrl, dataDir, scale: Number(args.scale), force: false });
  }
  const handle = await openDatabase({ url: databaseUrl, dataDir });
  try {
    // Jobs an earlier run left unfinished (its media downloads) would run during this run's first scenarios. A
    // database no server has started on yet has no job queue.
    const queue = await handle.executeSql(`select to_regclass('pgboss.job') is not null as exists`);
    if ((queue.rows[0] as { exists: boolean } | undefined)?.exists) {
      const { rows } = await handle.executeSql(
        `delete from pgboss.job where state in ('created', 'retry', 'active') returning 1`,
      );
      if (rows.length > 0) console.log(`  dropped ${rows.length} jobs an earlier run left unfinished`);
    }
    // An earlier run's ingestion-flow left its new tickets in its flow, waiting for an answer: the next run's plain
    // ingestion would then run the engine (and the bot's replies) for every message of those contacts, measuring
    // the chatbot instead of plain ingestion (12% less there). Their bot part ends, and its flows are deleted.
    const flows = await handle.executeSql(`select to_regclass('chat_flows') is not null as exists`);
    if ((flows.rows[0] as { exists: boolean } | undefined)?.exists) {
      const released = await handle.executeSql(
        `update tickets set chat_flow_id = null, step_chat_flow = null, bot_retries = 0, chatbot_state = '{}'
         where chat_flow_id in (select id from chat_flows where name like 'bench %') returning 1`,
      );
      await handle.executeSql(`update chat_flows set is_deleted = true, is_active = false where name like 'bench %'`);
      if (released.rows.length > 0)
        console.log(`  ended the flow of ${released.rows.length} tickets an earlier run left`);
    }
    // An earlier run's ingestion left pages that are not all-visible (its new contacts and tickets): index-only
    // counts then visit the heap (contacts 228 instead of 293 requests/s). Autovacuum would catch up on a live
    // database; the bench does it now, so runs start alike.
    await handle.executeSql('VACUUM (ANALYZE) contacts, contact_search_keys, tickets, messages, message_search_keys');
    return await readFacts(handle);
  } finally {
    await handle.close();
  }
}

const ms = (value: number): string => (Number.isFinite(value) ? value.toFixed(1) : '-');
const codes = (statusCodes: Record<string, number>): string =>
  Object.entries(statusCodes)
    .map(([code, n]) => `${code}:${n}`)
    .join(' ');

async function main(): Promise<void> {
  console.log(`bench on ${db}${databaseUrl ? ` (${databaseUrl})` : ` (${dataDir})`}`);
  const facts = await prepare();
  const database = await databaseVersion();
  const roundTrip = databaseUrl ? await roundTripCost(databaseUrl) : undefined;
  const machine = { ...machineFacts(database), roundTrip };
  const simulator = await startTelegramSimulator();
  for (const channel of facts.channels)
    simulator.bots.set(channel.token, { id: channel.id, username: `bench_${channel.id}_bot` });
  simulator.files.set('bench-photo', { path: 'photos/bench.jpg', data: Buffer.alloc(1024, 7), type: 'image/jpeg' });
  // WhatsApp as the Baileys sessions see it: the server's sockets are the test fake, connected to this simulator.
  const whatsapp = await startBaileysSimulator();
  // The QR gateways' APIs (their channels point at these).
  const evolution = await startEvolutionSimulator();
  const wuzapi = await startWuzapiSimulator();
  // Meta's Graph API as the WhatsApp Cloud API channels see it.
  const graph = await startWabaSimulator();
  const serverData = db === 'pglite' ? dataDir : fs.mkdtempSync(path.join(os.tmpdir(), 'conversa-bench-'));
  const server = await startServer({
    port: Number(args.port),
    dataDir: serverData,
    databaseUrl,
    telegramApiRoot: simulator.url,
    baileysSimulatorUrl: whatsapp.url,
    metaGraphUrl: graph.url,
    logFile: path.join(os.tmpdir(), `conversa-bench-${db}.log`),
    cpuProfileDir: args['cpu-prof'] ? path.resolve(args['cpu-prof']) : undefined,
  });
  const rows: Row[] = [];
  // CPU load of the machine during each scenario: run-to-run differences come from the neighbours as often as from
  // the code, and a result with steal is not comparable with one without.
  let load = measureCpuLoad();
  const record = (scenario: string, row: Omit<Row, 'scenario'>, result: object) => {
    const cpu = load.stop();
    rows.push({
      scenario,
      ...row,
      notes: cpu ? `${row.notes}; cpu ${cpu.busyPct}% steal ${cpu.stealPct}%` : row.notes,
    });
    const file = writeResult(db, scenario, {
      scenario,
      date: new Date().toISOString(),
      machine,
      cpu,
      options: { ...args, connections, duration },
      result,
    });
    console.log(`  ${scenario.padEnd(16)} ${row.rate.padEnd(12)} p50 ${row.p50} ms  p99 ${row.p99} ms  -> ${file}`);
  };
  const sockets: Socket[] = [];
  try {
    const primaryUsers = facts.users.filter((u) => u.tenantId === facts.tenantId);
    const admin = primaryUsers.find((u) => u.profile === 'admin')!;
    const agent = primaryUsers.find((u) => u.profile === 'user')!;
    const adminToken = await login(server.baseUrl, admin.email, BENCH_PASSWORD, 1);
    const agentToken = await login(server.baseUrl, agent.email, BENCH_PASSWORD, 2);
    // The fan-out's users log in first: the one-address login scenario leaves its e-mails locked for a minute.
    const plan: BenchUser[] = [];
    const tokens = new Map<number, string>();
    if (only.has('ingestion-baileys')) {
      const adminSocket = await connectSocket(server.baseUrl, adminToken);
      sockets.push(adminSocket);
      const session = await connectBaileysChannel(server.baseUrl, adminToken, whatsapp);
      load = measureCpuLoad();
      const result = await runSessionIngestion({
        pid: server.pid,
        simulator: whatsapp,
        channel: session,
        adminSocket,
        tenantId: facts.tenantId,
        updates: Number(args.updates),
        newShare: Number(args['new-share']),
      }).finally(() => removeBaileysChannel(server.baseUrl, adminToken, session));
      record(
        'ingestion-baileys',
        {
          rate: `${result.messagesPerSecond} msg/s`,
          p50: ms(result.eventP50Ms),
          p99: ms(result.eventP99Ms),
          rss: String(result.rssPeakMb),
          notes: `messages.upsert through the session socket; events missing ${result.eventsMissing}`,
        },
        result,
      );
    }
    if (only.has('ingestion-waba')) {
      const adminSocket = await connectSocket(server.baseUrl, adminToken);
      sockets.push(adminSocket);
      const channel = await connectWabaChannel(server.baseUrl, adminToken, graph);
      load = measureCpuLoad();
      const result = await runGatewayIngestion({
        baseUrl: server.baseUrl,
        pid: server.pid,
        channel,
        adminSocket,
        tenantId: facts.tenantId,
        updates: Number(args.updates),
        concurrency: Number(args.concurrency),
        newShare: Number(args['new-share']),
        perRequest: Number(args['per-post']),
      }).finally(() => removeGatewayChannel(server.baseUrl, adminToken, channel));
      record(
        'ingestion-waba',
        {
          rate: `${result.messagesPerSecond} msg/s`,
          p50: ms(result.eventP50Ms),
          p99: ms(result.eventP99Ms),
          rss: String(result.rssPeakMb),
          notes: `signed Cloud API webhooks, ${result.perRequest} messages + ${result.perRequest} statuses each; POST p50 ${result.postP50Ms} p99 ${result.postP99Ms}; failed ${result.failed}; events missing ${result.eventsMissing}`,
        },
        result,
      );
    }
    for (const kind of ['evo', 'meow'] as const) {
      const scenario = `ingestion-${kind}` as const;
      if (!only.has(scenario)) continue;
      const adminSocket = await connectSocket(server.baseUrl, adminToken);
      sockets.push(adminSocket);
      const gateway: GatewayChannel =
        kind === 'evo'
          ? await connectEvolutionChannel(server.baseUrl, adminToken, evolution)
          : await connectWuzapiChannel(server.baseUrl, adminToken, wuzapi);
      load = measureCpuLoad();
      const result = await runGatewayIngestion({
        baseUrl: server.baseUrl,
        pid: server.pid,
        channel: gateway,
        adminSocket,
        tenantId: facts.tenantId,
        updates: Number(args.updates),
        concurrency: Number(args.concurrency),
        newShare: Number(args['new-share']),
      }).finally(() => removeGatewayChannel(server.baseUrl, adminToken, gateway));
      record(
        scenario,
        {
          rate: `${result.messagesPerSecond} msg/s`,
          p50: ms(result.eventP50Ms),
          p99: ms(result.eventP99Ms),
          rss: String(result.rssPeakMb),
          notes: `webhooks as the gateway posts them; POST p50 ${result.postP50Ms} p99 ${result.postP99Ms}; failed ${result.failed}; events missing ${result.eventsMissing}`,
        },
        result,
      );
    }
    if (only.has('fanout')) {
      const wanted = Number(args.sockets);
      const others = facts.users.filter((u) => u.tenantId !== facts.tenantId);
      // Half the sockets on the tenant that receives the messages (agents with several tabs), half on other tenants.
      const ownCount = others.length ? Math.ceil(wanted / 2) : wanted;
      plan.push(
        ...Array.from({ length: ownCount }, (_, i) => primaryUsers[i % primaryUsers.length]!),
        ...Array.from({ length: wanted - ownCount }, (_, i) => others[i % others.length]!),
      );
      const distinct = [...new Map(plan.map((u) => [u.id, u])).values()];
      await pool(distinct, 4, async (user, i) => {
        tokens.set(user.id, await login(server.baseUrl, user.email, BENCH_PASSWORD, 100 + i));
      });
    }

    const http: HttpScenario[] = [
      { name: 'tickets-admin', path: '/api/tickets?status=open,pending&showAll=true', token: adminToken },
      {
        name: 'tickets-search',
        path: `/api/tickets?status=open,pending&showAll=true&searchParam=${encodeURIComponent(args.search)}`,
        token: adminToken,
      },
      // The same list searched by a word of messages (tickets.search.ts): the contact search finds nothing, the text
      // search a page of the tickets whose messages hold it.
      {
        name: 'tickets-search-text',
        path: `/api/tickets?status=open,pending&showAll=true&searchParam=${encodeURIComponent(args['text-search'])}`,
        token: adminToken,
      },
      {
        name: 'search-message',
        path: `/api/searchMessage?searchTerm=${encodeURIComponent(args['text-search'])}&pageNumber=1`,
        token: adminToken,
      },
      { name: 'tickets-agent', path: '/api/tickets?status=open,pending', token: agentToken },
      {
        name: 'messages',
        path: (() => {
          const next = rotate(facts.ticketIds);
          return () => `/api/messages/${next()}`;
        })(),
        token: adminToken,
      },
      { name: 'contacts', path: '/api/contacts/', token: adminToken },
      {
        name: 'contacts-search',
        path: `/api/contacts/?searchParam=${encodeURIComponent(args.search)}`,
        token: adminToken,
      },
      // A new client address per attempt (X-Forwarded-For, trusted by the server): the password-hashing path. It runs
      // first: the one-address run leaves its e-mails over their limit for a minute (attempts refused by the IP limit
      // still count for the e-mail).
      loginScenario(
        'login-clients',
        facts.users.map((u) => u.email),
        BENCH_PASSWORD,
        true,
      ),
      // One client address: the per-IP limit (30/min) answers most attempts with 429 ERR_LIMIT_MAX.
      loginScenario(
        'login',
        primaryUsers.map((u) => u.email),
        BENCH_PASSWORD,
        false,
      ),
    ];
    for (const scenario of http) {
      if (!only.has(scenario.name as (typeof SCENARIOS)[number])) continue;
      load = measureCpuLoad();
      const result: HttpResult = await runHttp(server.baseUrl, server.pid, scenario, { connections, duration });
      record(
        scenario.name,
        {
          rate: `${result.requestsPerSecond} req/s`,
          p50: ms(result.p50Ms),
          p99: ms(result.p99Ms),
          rss: String(result.rssPeakMb),
          notes: codes(result.statusCodes) + (result.errors ? ` errors:${result.errors}` : ''),
        },
        result,
      );
    }

    const needsWebhook = only.has('ingestion') || only.has('ingestion-flow') || only.has('fanout');
    const channel = facts.channels.find((c) => c.tenantId === facts.tenantId)!;
    let webhook = { url: '', secret: '' };
    if (needsWebhook) {
      await api(server.baseUrl, adminToken, 'POST', `/whatsappsession/${channel.id}`);
      const registration = simulator
        .callsOf('setWebhook')
        .filter((call) => call.token === channel.token)
        .at(-1);
      if (!registration) throw new Error('the channel registered no webhook');
      webhook = { url: String(registration.params.url), secret: String(registration.params.secret_token) };
    }
    if (only.has('ingestion')) {
      const adminSocket = await connectSocket(server.baseUrl, adminToken);
      sockets.push(adminSocket);
      load = measureCpuLoad();
      const result = await runIngestion({
        pid: server.pid,
        webhook,
        adminSocket,
        tenantId: facts.tenantId,
        existing: facts.activeTickets.slice(0, Math.floor(facts.activeTickets.length / 2)),
        updates: Number(args.updates),
        concurrency: Number(args.concurrency),
        newShare: Number(args['new-share']),
        downloadsStarted: () => simulator.callsOf('getFile').length,
      });
      record(
        'ingestion',
        {
          rate: `${result.messagesPerSecond} msg/s`,
          p50: ms(result.eventP50Ms),
          p99: ms(result.eventP99Ms),
          rss: String(result.rssPeakMb),
          notes: `POST p50 ${result.postP50Ms} p99 ${result.postP99Ms}; failed ${result.failed}; events missing ${result.eventsMissing}; media drained ${result.mediaDrainS} s, pending ${result.mediaPending}`,
        },
        result,
      );
    }
    if (only.has('ingestion-flow')) {
      const adminSocket = await connectSocket(server.baseUrl, adminToken);
      sockets.push(adminSocket);
      const flow = await activateBenchFlow(server.baseUrl, adminToken);
      // The tenant's routing config is cached for a few seconds: the flow must be seen by the first update.
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      const sentBefore = simulator.callsOf('sendMessage').length;
      const updates = Number(args.updates);
      const newTickets = Array.from({ length: updates }, (_, i) => i).filter(
        (i) => Math.floor((i + 1) * Number(args['new-share'])) > Math.floor(i * Number(args['new-share'])),
      ).length;
      load = measureCpuLoad();
      try {
        const result = await runIngestion({
          scenario: 'ingestion-flow',
          pid: server.pid,
          webhook,
          adminSocket,
          tenantId: facts.tenantId,
          existing: facts.activeTickets.slice(0, Math.floor(facts.activeTickets.length / 2)),
          updates,
          concurrency: Number(args.concurrency),
          newShare: Number(args['new-share']),
          downloadsStarted: () => simulator.callsOf('getFile').length,
          replies: { sent: () => simulator.callsOf('sendMessage').length - sentBefore, expected: newTickets },
        });
        record(
          'ingestion-flow',
          {
            rate: `${result.messagesPerSecond} msg/s`,
            p50: ms(result.eventP50Ms),
            p99: ms(result.eventP99Ms),
            rss: String(result.rssPeakMb),
            notes: `POST p50 ${result.postP50Ms} p99 ${result.postP99Ms}; failed ${result.failed}; events missing ${result.eventsMissing}; ${newTickets} new tickets in the flow, welcomes sent ${result.repliesSent} (drained ${result.repliesDrainS} s)`,
          },
          result,
        );
      } finally {
        await flow.remove();
      }
    }
    if (only.has('fanout')) {
      const connected = await pool(plan, 50, async (user) => {
        const socket = await connectSocket(server.baseUrl, tokens.get(user.id)!);
        sockets.push(socket);
        return { socket, user };
      });
      load = measureCpuLoad();
      const result = await runFanout({
        pid: server.pid,
        webhook,
        tenantId: facts.tenantId,
        sockets: connected,
        tickets: facts.activeTickets.slice(Math.floor(facts.activeTickets.length / 2)),
        messages: Number(args['fanout-messages']),
        rate: Number(args['fanout-rate']),
      });
      record(
        'fanout',
        {
          rate: `${result.sockets} sockets`,
          p50: ms(result.p50Ms),
          p99: ms(result.p99Ms),
          rss: String(result.rssPeakMb),
          notes: `${result.messages} msgs @${result.ratePerSecond}/s; delivered ${result.deliveries}/${result.expectedDeliveries}; other tenants ${result.otherTenantEvents}; unexpected ${result.unexpectedDeliveries}`,
        },
        result,
      );
    }
  } finally {
    for (const socket of sockets) socket.disconnect();
    await server.stop();
    await simulator.close();
    await whatsapp.close();
    await evolution.close();
    await wuzapi.close();
    await graph.close();
  }
  const gauge = roundTrip ? `, a round trip ${roundTrip.wallUs} µs (${roundTrip.cpuUs} µs of client CPU)` : '';
  printTable(
    `${machine.database} — ${machine.cores} cores, ${machine.memoryGb} GB, node ${machine.node}${gauge}`,
    rows,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
