/**
 * Ingestion through a stateful session: a Baileys channel whose socket is the fake (BAILEYS_SOCKET_MODULE) connected to
 * the in-process simulator. The bench logs the channel in (QR, scan), then the simulator pushes `messages.upsert`
 * events straight into the server's socket, as WhatsApp would; each message is timed to the admin's `{T}:ticketList`
 * chat:create event. Same measure as the webhook scenario: messages per second over the whole burst, event latency.
 */
import type { Socket } from 'socket.io-client';
import type { BaileysSimulator } from '../../../apps/server/src/modules/channels/providers/baileys/baileys.simulator.js';
import { api, percentile } from './api.js';
import { sampleRss } from './server.js';

const RUN = Date.now() % 1_000_000_000;
const round = (value: number) => Math.round(value * 10) / 10;

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

export interface SessionChannel {
  id: number;
}

const BENCH_CHANNEL = 'Bench WhatsApp';

/** The scenario's channel goes away after the run (the tenant's connection limit stays free for the next run). */
export async function removeBaileysChannel(baseUrl: string, adminToken: string, channel: SessionChannel) {
  await api(baseUrl, adminToken, 'DELETE', `/whatsapp/${channel.id}`).catch(() => undefined);
}

/**
 * Creates a Baileys channel (removing any a crashed run left), starts its session and scans the QR: resolves once the
 * channel is CONNECTED.
 */
export async function connectBaileysChannel(
  baseUrl: string,
  adminToken: string,
  simulator: BaileysSimulator,
): Promise<SessionChannel> {
  const existing = await api<{ id: number; name: string }[]>(baseUrl, adminToken, 'GET', '/whatsapp');
  for (const old of existing.filter((c) => c.name.startsWith(BENCH_CHANNEL))) {
    await removeBaileysChannel(baseUrl, adminToken, old);
  }
  const channel = await api<{ id: number }>(baseUrl, adminToken, 'POST', '/whatsapp', {
    name: `${BENCH_CHANNEL} ${RUN}`,
    type: 'baileys',
  });
  const since = Date.now();
  await api(baseUrl, adminToken, 'POST', `/whatsappsession/${channel.id}`);
  await simulator.waitForSocket(channel.id, { since, timeoutMs: 30_000 });
  simulator.scan(channel.id, { number: `5511${String(RUN).padStart(9, '0').slice(-9)}`, name: 'Bench' });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const state = await api<{ status: string }>(baseUrl, adminToken, 'GET', `/whatsapp/${channel.id}`);
    if (state.status === 'CONNECTED') return channel;
    if (Date.now() > deadline) throw new Error(`the Baileys channel stayed ${state.status}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export interface SessionIngestResult {
  scenario: string;
  updates: number;
  newShare: number;
  messagesPerSecond: number;
  eventP50Ms: number;
  eventP99Ms: number;
  eventsMissing: number;
  rssPeakMb: number;
  rssMeanMb: number;
}

/**
 * `updates` messages (`newShare` of them from new numbers, the rest from numbers that already wrote in this run), one
 * `messages.upsert` each, pushed as fast as the simulator's event stream carries them.
 */
export async function runSessionIngestion(options: {
  pid: number;
  simulator: BaileysSimulator;
  channel: SessionChannel;
  adminSocket: Socket;
  tenantId: number;
  updates: number;
  newShare: number;
}): Promise<SessionIngestResult> {
  const sentAt = new Map<string, number>();
  const eventAt = new Map<string, number>();
  options.adminSocket.on(`${options.tenantId}:ticketList`, (event: { type: string; payload: { body?: string } }) => {
    if (event.type !== 'chat:create') return;
    const marker = /#s\d+-\d+/.exec(String(event.payload.body ?? ''))?.[0];
    if (marker && !eventAt.has(marker)) eventAt.set(marker, performance.now());
  });
  const numbers: string[] = [];
  const rss = sampleRss(options.pid);
  const started = performance.now();
  for (let i = 0; i < options.updates; i += 1) {
    const isNew = numbers.length === 0 || Math.floor((i + 1) * options.newShare) > Math.floor(i * options.newShare);
    if (isNew) numbers.push(`55119${String(RUN % 10_000).padStart(4, '0')}${String(i).padStart(4, '0')}`);
    const number = isNew ? numbers.at(-1)! : numbers[i % numbers.length]!;
    const marker = `#s${RUN}-${i}`;
    sentAt.set(marker, performance.now());
    const delivered = options.simulator.emit(options.channel.id, 'messages.upsert', {
      type: 'notify',
      messages: [
        {
          key: { remoteJid: `${number}@s.whatsapp.net`, fromMe: false, id: `BENCH${RUN}${i}` },
          message: { conversation: `mensagem ${marker}` },
          messageTimestamp: Math.floor(Date.now() / 1000),
          pushName: `Cliente ${i}`,
        },
      ],
    } as never);
    if (!delivered) throw new Error('the Baileys channel has no live socket');
    // Yield now and then so the simulator's stream writes go out while the burst is built.
    if (i % 50 === 49) await new Promise((resolve) => setImmediate(resolve));
  }
  await waitUntil(() => eventAt.size >= options.updates, 120_000);
  const seconds = (performance.now() - started) / 1000;
  const memory = rss.stop();
  options.adminSocket.off(`${options.tenantId}:ticketList`);
  const latencies = [...eventAt].map(([marker, at]) => at - sentAt.get(marker)!);
  return {
    scenario: 'ingestion-baileys',
    updates: options.updates,
    newShare: options.newShare,
    messagesPerSecond: Math.round(eventAt.size / seconds),
    eventP50Ms: round(percentile(latencies, 50)),
    eventP99Ms: round(percentile(latencies, 99)),
    eventsMissing: options.updates - eventAt.size,
    rssPeakMb: memory.peakMb,
    rssMeanMb: memory.meanMb,
  };
}
