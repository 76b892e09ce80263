/**
 * Ingestion and realtime fan-out: Telegram updates POSTed to the channel's webhook with its secret, timed to the
 * `{T}:ticketList` chat:create event on connected sockets.
 */
import http from 'node:http';
import type { Socket } from 'socket.io-client';
import { percentile, pool } from './api.js';
import type { ActiveTicket, BenchUser } from './facts.js';
import { maySee } from './facts.js';
import { sampleRss } from './server.js';

export interface Webhook {
  url: string;
  secret: string;
}

/** A run tag keeps provider ids and new chat ids of this run apart from the seed's and earlier runs'. */
const RUN = Date.now() % 1_000_000_000;
/** runIngestion calls made by this process. */
let calls = 0;
let updateSeq = 0;

function update(chatId: string, marker: string, photo: boolean): object {
  const seq = ++updateSeq;
  const message = {
    message_id: RUN * 1000 + seq,
    from: { id: Number(chatId), is_bot: false, first_name: 'Cliente', last_name: `Bench ${seq}` },
    chat: { id: Number(chatId), first_name: 'Cliente', last_name: `Bench ${seq}`, type: 'private' },
    date: Math.floor(Date.now() / 1000),
    ...(photo
      ? {
          photo: [{ file_id: 'bench-photo', file_unique_id: 'bench-photo', file_size: 1024, width: 64, height: 64 }],
          caption: `foto ${marker}`,
        }
      : { text: `mensagem ${marker}` }),
  };
  return { update_id: RUN * 1000 + seq, message };
}

/**
 * Keep-alive connections, one per POST in flight, with node:http: the load generator shares the machine's two cores
 * with the server and PostgreSQL, and fetch spent about 2.5 ms of CPU per POST (a third of a core at 140 msg/s).
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function post(webhook: Webhook, body: object): Promise<number> {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const request = http.request(
      webhook.url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': payload.length,
          'x-telegram-bot-api-secret-token': webhook.secret,
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

const markerOf = (body: unknown): string | undefined => /#[bf]\d+-\d+/.exec(String(body ?? ''))?.[0];

export interface IngestResult {
  scenario: string;
  updates: number;
  concurrency: number;
  newShare: number;
  failed: number;
  messagesPerSecond: number;
  postP50Ms: number;
  postP99Ms: number;
  eventP50Ms: number;
  eventP99Ms: number;
  eventsMissing: number;
  /** Photos whose media download had not started when the wait for them ended. */
  mediaPending: number;
  /** Seconds from the last POST's answer until the last photo's download started (the media jobs drained). */
  mediaDrainS: number;
  rssPeakMb: number;
  rssMeanMb: number;
  /** ingestion-flow: the bot's sends seen by the provider after the run, and seconds until all were (from the last POST). */
  repliesSent?: number;
  repliesDrainS?: number;
}

/** N updates (`newShare` of them from new contacts, the others into existing tickets; one in four a photo) with `concurrency` POSTs in flight. */
export async function runIngestion(options: {
  /** The name reported (default 'ingestion'). */
  scenario?: string;
  pid: number;
  webhook: Webhook;
  adminSocket: Socket;
  tenantId: number;
  existing: ActiveTicket[];
  updates: number;
  concurrency: number;
  /** Share of updates from new contacts (each makes a contact and a ticket); the rest go to existing tickets. */
  newShare: number;
  /** How many media downloads the server has started so far (the simulator's getFile calls). */
  downloadsStarted: () => number;
  /** ingestion-flow: how many sends the provider has seen, and how many to wait for (one welcome per new ticket). */
  replies?: { sent: () => number; expected: number };
}): Promise<IngestResult> {
  const sentAt = new Map<string, number>();
  const eventAt = new Map<string, number>();
  options.adminSocket.on(`${options.tenantId}:ticketList`, (event: { type: string; payload: { body?: string } }) => {
    if (event.type !== 'chat:create') return;
    const marker = markerOf(event.payload.body);
    if (marker && !eventAt.has(marker)) eventAt.set(marker, performance.now());
  });
  // Each call of a process has its own new contacts and markers: a second scenario (ingestion-flow after ingestion)
  // would otherwise write into the tickets the first one opened, and make none.
  calls += 1;
  const runId = RUN * 10 + calls;
  const newChatBase = 1_000_000_000_000 + runId * 10_000;
  const jobs = Array.from({ length: options.updates }, (_, i) => {
    const marker = `#b${runId}-${i}`;
    const isNew = Math.floor((i + 1) * options.newShare) > Math.floor(i * options.newShare);
    const chatId = isNew ? String(newChatBase + i) : options.existing[i % options.existing.length]!.chatId;
    return { marker, body: update(chatId, marker, i % 4 === 3) };
  });
  const postTimes: number[] = [];
  let failed = 0;
  const rss = sampleRss(options.pid);
  const downloadsBefore = options.downloadsStarted();
  const photos = jobs.filter((job) => 'photo' in (job.body as { message: object }).message).length;
  const started = performance.now();
  await pool(jobs, options.concurrency, async (job) => {
    const t0 = performance.now();
    sentAt.set(job.marker, t0);
    const status = await post(options.webhook, job.body).catch(() => 0);
    postTimes.push(performance.now() - t0);
    if (status !== 200) failed += 1;
  });
  const seconds = (performance.now() - started) / 1000;
  // Events published after the last commit may still be on their way.
  const posted = performance.now();
  await waitUntil(() => eventAt.size >= options.updates - failed, 10_000);
  // The photos' download jobs run after the answers: wait for them, so the next scenario does not pay for them.
  const downloads = () => options.downloadsStarted() - downloadsBefore;
  await waitUntil(() => downloads() >= photos, 120_000);
  const mediaDrainS = (performance.now() - posted) / 1000;
  const replies = options.replies;
  if (replies) await waitUntil(() => replies.sent() >= replies.expected, 180_000);
  const repliesDrainS = (performance.now() - posted) / 1000;
  const memory = rss.stop();
  options.adminSocket.off(`${options.tenantId}:ticketList`);
  const latencies = [...eventAt].map(([marker, at]) => at - sentAt.get(marker)!);
  return {
    scenario: options.scenario ?? 'ingestion',
    updates: options.updates,
    concurrency: options.concurrency,
    newShare: options.newShare,
    failed,
    messagesPerSecond: Math.round((options.updates - failed) / seconds),
    postP50Ms: round(percentile(postTimes, 50)),
    postP99Ms: round(percentile(postTimes, 99)),
    eventP50Ms: round(percentile(latencies, 50)),
    eventP99Ms: round(percentile(latencies, 99)),
    eventsMissing: options.updates - failed - eventAt.size,
    mediaPending: Math.max(0, photos - downloads()),
    mediaDrainS: round(mediaDrainS),
    rssPeakMb: memory.peakMb,
    rssMeanMb: memory.meanMb,
    ...(replies ? { repliesSent: replies.sent(), repliesDrainS: round(repliesDrainS) } : {}),
  };
}

export interface FanoutResult {
  scenario: string;
  sockets: number;
  socketsOfOtherTenants: number;
  messages: number;
  ratePerSecond: number;
  deliveries: number;
  expectedDeliveries: number;
  unexpectedDeliveries: number;
  otherTenantEvents: number;
  p50Ms: number;
  p99Ms: number;
  rssPeakMb: number;
  rssMeanMb: number;
}

/**
 * `messages` updates at `rate` per second into existing tickets of the tenant; every socket records the arrival of
 * each marker on any event. Deliveries are compared with the visibility policy; sockets of other tenants must see
 * nothing of them.
 */
export async function runFanout(options: {
  pid: number;
  webhook: Webhook;
  tenantId: number;
  sockets: { socket: Socket; user: BenchUser }[];
  tickets: ActiveTicket[];
  messages: number;
  rate: number;
}): Promise<FanoutResult> {
  const sentAt = new Map<string, { at: number; ticket: ActiveTicket }>();
  const latencies: number[] = [];
  let unexpected = 0;
  let otherTenant = 0;
  let delivered = 0;
  options.sockets.forEach(({ socket, user }) => {
    const seen = new Set<string>();
    socket.onAny((name: string, event: { type?: string; payload?: { body?: string } }) => {
      const marker = event?.type === 'chat:create' ? markerOf(event.payload?.body) : undefined;
      if (!marker) return;
      const sent = sentAt.get(marker);
      if (!sent || seen.has(marker)) return;
      seen.add(marker);
      if (user.tenantId !== options.tenantId || !name.startsWith(`${options.tenantId}:`)) otherTenant += 1;
      else if (!maySee(user, options.tenantId, sent.ticket)) unexpected += 1;
      delivered += 1;
      latencies.push(performance.now() - sent.at);
    });
  });
  let expected = 0;
  const rss = sampleRss(options.pid);
  const interval = 1000 / options.rate;
  const started = performance.now();
  const posts: Promise<number>[] = [];
  for (let i = 0; i < options.messages; i++) {
    const wait = started + i * interval - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const ticket = options.tickets[i % options.tickets.length]!;
    const marker = `#f${RUN}-${i}`;
    expected += options.sockets.filter(({ user }) => maySee(user, options.tenantId, ticket)).length;
    sentAt.set(marker, { at: performance.now(), ticket });
    posts.push(post(options.webhook, update(ticket.chatId, marker, false)).catch(() => 0));
  }
  await Promise.all(posts);
  await waitUntil(() => delivered >= expected, 15_000);
  const memory = rss.stop();
  for (const { socket } of options.sockets) socket.offAny();
  return {
    scenario: 'fanout',
    sockets: options.sockets.length,
    socketsOfOtherTenants: options.sockets.filter(({ user }) => user.tenantId !== options.tenantId).length,
    messages: options.messages,
    ratePerSecond: options.rate,
    deliveries: delivered,
    expectedDeliveries: expected,
    unexpectedDeliveries: unexpected,
    otherTenantEvents: otherTenant,
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    rssPeakMb: memory.peakMb,
    rssMeanMb: memory.meanMb,
  };
}

const round = (value: number): number => Math.round(value * 10) / 10;

async function waitUntil(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}
