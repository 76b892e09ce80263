/**
 * Ingestion through the QR gateways (Evolution API, Wuzapi): a channel of the type whose gateway is the in-process
 * simulator, connected the way a user connects it (POST /whatsappsession, then the simulated phone logs in), then
 * `updates` customer messages posted to our webhook exactly as the gateway posts them (Evolution: `messages.upsert`
 * with the channel's secret header; Wuzapi: a form-encoded `Message` signed with the HMAC key), `concurrency` in
 * flight. Same measure as the Telegram scenario: messages per second until every POST is answered, and the latency
 * from each POST to the admin socket's chat:create. The channel is removed after the run.
 */
import type { Socket } from 'socket.io-client';
import type { EvolutionSimulator } from '../../../apps/server/src/modules/channels/providers/evolution/evolution.simulator.js';
import type { WuzapiSimulator } from '../../../apps/server/src/modules/channels/providers/wuzapi/wuzapi.simulator.js';
import { api, percentile, pool } from './api.js';
import type { IngestResult } from './realtime.js';
import { sampleRss } from './server.js';

const RUN = Date.now() % 1_000_000_000;
const round = (value: number) => Math.round(value * 10) / 10;
const WUZAPI_TOKEN = `BENCH-MEOW-${RUN}`;

export type GatewayKind = 'evo' | 'meow' | 'waba';

/** A webhook request as the gateway makes it: path on our server, headers, raw body. */
interface GatewayRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface GatewayChannel {
  id: number;
  kind: GatewayKind;
  /** Builds the gateway's webhook for one customer message. */
  message(number: string, id: string, text: string, name: string): GatewayRequest;
  /** Providers that post several messages in one webhook (the Cloud API): builds one request for all of them. */
  batch?(messages: { number: string; id: string; text: string; name: string }[]): GatewayRequest;
}

const PREFIXES: Record<GatewayKind, string> = { evo: 'BenchEvo', meow: 'Bench Wuzapi ', waba: 'Bench Cloud API ' };
const channelName = (kind: GatewayKind) => `${PREFIXES[kind]}${RUN}`;

export async function waitConnected(baseUrl: string, token: string, id: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const state = await api<{ status: string }>(baseUrl, token, 'GET', `/whatsapp/${id}`);
    if (state.status === 'CONNECTED') return;
    if (Date.now() > deadline) throw new Error(`the gateway channel stayed ${state.status}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function postTo(baseUrl: string, request: GatewayRequest): Promise<number> {
  const response = await fetch(`${baseUrl}${request.path}`, {
    method: 'POST',
    headers: request.headers,
    body: request.body,
  });
  await response.arrayBuffer();
  return response.status;
}

/** Removes channels of this scenario that a crashed run left (the tenant's connection limit). */
export async function removeLeftovers(baseUrl: string, token: string, kind: GatewayKind): Promise<void> {
  const prefix = PREFIXES[kind].trim();
  const existing = await api<{ id: number; name: string }[]>(baseUrl, token, 'GET', '/whatsapp');
  for (const old of existing.filter((c) => c.name.startsWith(prefix))) {
    await api(baseUrl, token, 'DELETE', `/whatsapp/${old.id}`).catch(() => undefined);
  }
}

export async function removeGatewayChannel(baseUrl: string, token: string, channel: { id: number }): Promise<void> {
  await api(baseUrl, token, 'DELETE', `/whatsapp/${channel.id}`).catch(() => undefined);
}

export async function connectEvolutionChannel(
  baseUrl: string,
  token: string,
  sim: EvolutionSimulator,
): Promise<GatewayChannel> {
  await removeLeftovers(baseUrl, token, 'evo');
  const name = channelName('evo');
  const created = await api<{ id: number; wabaId: string }>(baseUrl, token, 'POST', '/whatsapp', {
    name,
    type: 'evo',
    remotePath: sim.url,
    tokenAPI: sim.apiKey,
  });
  await api(baseUrl, token, 'POST', `/whatsappsession/${created.id}`);
  const opened = sim.open(created.wabaId, `5511${String(RUN).padStart(9, '0').slice(-9)}@s.whatsapp.net`);
  await postTo(baseUrl, { path: opened.path, headers: opened.headers, body: JSON.stringify(opened.payload) });
  await waitConnected(baseUrl, token, created.id);
  return {
    id: created.id,
    kind: 'evo',
    message(number, id, text, pushName) {
      const request = sim.webhook(created.wabaId, 'messages.upsert', {
        key: { remoteJid: `${number}@s.whatsapp.net`, fromMe: false, id },
        pushName,
        status: 'DELIVERY_ACK',
        message: { conversation: text },
        contextInfo: null,
        messageType: 'conversation',
        messageTimestamp: Math.floor(Date.now() / 1000),
        instanceId: `bench-${RUN}`,
        source: 'android',
      });
      return {
        path: request.path,
        headers: { ...request.headers, 'content-type': 'application/json' },
        body: JSON.stringify(request.payload),
      };
    },
  };
}

export async function connectWuzapiChannel(
  baseUrl: string,
  token: string,
  sim: WuzapiSimulator,
): Promise<GatewayChannel> {
  await removeLeftovers(baseUrl, token, 'meow');
  sim.addUser(WUZAPI_TOKEN);
  const created = await api<{ id: number }>(baseUrl, token, 'POST', '/whatsapp', {
    name: channelName('meow'),
    type: 'meow',
    remotePath: sim.url,
    tokenAPI: WUZAPI_TOKEN,
    wabaId: `bench${RUN}`,
  });
  await api(baseUrl, token, 'POST', `/whatsappsession/${created.id}`);
  const own = `5511${String(RUN).padStart(9, '0').slice(-9)}`;
  sim.login(WUZAPI_TOKEN, `${own}:7@s.whatsapp.net`);
  const signed = (event: Record<string, unknown>): GatewayRequest => {
    const request = sim.webhook(WUZAPI_TOKEN, event, 'form');
    return { path: new URL(request.url).pathname, headers: request.headers, body: request.payload };
  };
  await postTo(baseUrl, signed({ type: 'Connected', event: {} }));
  await waitConnected(baseUrl, token, created.id);
  return {
    id: created.id,
    kind: 'meow',
    message(number, id, text, pushName) {
      const jid = `${number}@s.whatsapp.net`;
      return signed({
        type: 'Message',
        event: {
          Info: {
            Chat: jid,
            Sender: jid,
            IsFromMe: false,
            IsGroup: false,
            ID: id,
            Type: 'text',
            PushName: pushName,
            Timestamp: new Date().toISOString(),
          },
          Message: { conversation: text },
        },
      });
    },
  };
}

/** The webhook scenario's figures, without its media drain (these messages carry no media). */
export type GatewayIngestResult = Omit<IngestResult, 'mediaPending' | 'mediaDrainS'>;

/**
 * `updates` text messages (`newShare` from new numbers, the rest from numbers that wrote earlier in the run), one per
 * webhook, or `perRequest` per webhook for a channel that batches (`batch`).
 */
export async function runGatewayIngestion(options: {
  baseUrl: string;
  pid: number;
  channel: GatewayChannel;
  adminSocket: Socket;
  tenantId: number;
  updates: number;
  concurrency: number;
  newShare: number;
  perRequest?: number;
}): Promise<GatewayIngestResult & { perRequest: number }> {
  const tag = { evo: 'e', meow: 'w', waba: 'c' }[options.channel.kind];
  const sentAt = new Map<string, number>();
  const eventAt = new Map<string, number>();
  const markerPattern = new RegExp(`#${tag}\\d+-\\d+`);
  options.adminSocket.on(`${options.tenantId}:ticketList`, (event: { type: string; payload: { body?: string } }) => {
    if (event.type !== 'chat:create') return;
    const marker = markerPattern.exec(String(event.payload.body ?? ''))?.[0];
    if (marker && !eventAt.has(marker)) eventAt.set(marker, performance.now());
  });
  const numbers: string[] = [];
  const messages = Array.from({ length: options.updates }, (_, i) => {
    const isNew = numbers.length === 0 || Math.floor((i + 1) * options.newShare) > Math.floor(i * options.newShare);
    if (isNew) numbers.push(`55219${String(RUN % 10_000).padStart(4, '0')}${String(i).padStart(4, '0')}`);
    const number = isNew ? numbers.at(-1)! : numbers[i % numbers.length]!;
    const marker = `#${tag}${RUN}-${i}`;
    const id = `3A${tag.toUpperCase()}${RUN}${String(i).padStart(6, '0')}`;
    return { marker, number, id, text: `mensagem ${marker}`, name: `Cliente ${i}` };
  });
  const perRequest = options.channel.batch ? Math.max(1, options.perRequest ?? 1) : 1;
  const jobs: { markers: string[]; request: GatewayRequest }[] = [];
  for (let i = 0; i < messages.length; i += perRequest) {
    const group = messages.slice(i, i + perRequest);
    const request =
      perRequest > 1 && options.channel.batch
        ? options.channel.batch(group)
        : options.channel.message(group[0]!.number, group[0]!.id, group[0]!.text, group[0]!.name);
    jobs.push({ markers: group.map((m) => m.marker), request });
  }
  const postTimes: number[] = [];
  let failed = 0;
  const rss = sampleRss(options.pid);
  const started = performance.now();
  await pool(jobs, options.concurrency, async (job) => {
    const t0 = performance.now();
    for (const marker of job.markers) sentAt.set(marker, t0);
    const status = await postTo(options.baseUrl, job.request).catch(() => 0);
    postTimes.push(performance.now() - t0);
    if (status !== 200) failed += job.markers.length;
  });
  const seconds = (performance.now() - started) / 1000;
  // Events published after the last commit may still be on their way.
  const deadline = Date.now() + 10_000;
  while (eventAt.size < options.updates - failed && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const memory = rss.stop();
  options.adminSocket.off(`${options.tenantId}:ticketList`);
  const latencies = [...eventAt].map(([marker, at]) => at - sentAt.get(marker)!);
  return {
    scenario: `ingestion-${options.channel.kind}`,
    updates: options.updates,
    concurrency: options.concurrency,
    newShare: options.newShare,
    perRequest,
    failed,
    messagesPerSecond: Math.round((options.updates - failed) / seconds),
    postP50Ms: round(percentile(postTimes, 50)),
    postP99Ms: round(percentile(postTimes, 99)),
    eventP50Ms: round(percentile(latencies, 50)),
    eventP99Ms: round(percentile(latencies, 99)),
    eventsMissing: options.updates - failed - eventAt.size,
    rssPeakMb: memory.peakMb,
    rssMeanMb: memory.meanMb,
  };
}
