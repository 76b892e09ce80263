/**
 * The stateful sessions this process runs (channelId -> LiveSession) and their supervisor. Exactly one process holds
 * a session's lease (session-lease.ts); on nodes with workers on, the supervisor ticks every `renewMs`: it renews its
 * leases, drops the sessions whose lease it lost (closed, auth kept), stops the ones nobody wants any more (logout),
 * and claims a bounded number of wanted sessions that nobody holds. Each session runs on the lease owner with its
 * queue worked there (sends and actions run next to the socket). Nodes with workers off own none.
 */
import crypto from 'node:crypto';
import os from 'node:os';
import type { Logger } from 'pino';
import type { ChannelStatus, ChannelType } from '@conversa/shared';
import type { Database } from '../../../platform/db/client.js';
import { withSystem } from '../../../platform/db/tenancy.js';
import type { JobQueue } from '../../../platform/jobs/queue.js';
import type { ChannelCredentials, InboundEvent } from '../channels.adapter.js';
import { toCredentials } from '../channels.dto.js';
import { findChannelById, type ChannelRow } from '../channels.repository.js';
import {
  actOnOwner,
  runActionJob,
  SESSION_ACTION_JOB,
  sessionActionSchema,
  type SessionAction,
} from './session-actions.js';
import { performAction } from './session-actions.js';
import { createAuthStateStore } from './session-auth-store.js';
import type { LiveSession, SessionCloseReason, SessionContext, SessionDriver } from './session-driver.js';
import { sessionJobHandler, sessionJobSchema, sessionQueueName } from './session-jobs.js';
import * as lease from './session-lease.js';

/** Events a session hands to the sessions service rather than to ingestion. */
export type SessionSideEvent = Extract<InboundEvent, { kind: 'session' | 'session-sync' | 'battery' }>;
export type ConversationEvent = Exclude<InboundEvent, SessionSideEvent>;

/** The channels module's side: session state on the channel row, and the conversation pipeline. */
export interface SessionHostPorts {
  sessionEvent(channel: ChannelCredentials, event: SessionSideEvent): Promise<void>;
  /** The host's own state changes: `retry` counts a reconnect attempt. */
  status(tenantId: number, channelId: number, status: ChannelStatus, options?: { retry?: boolean }): Promise<void>;
  conversation(channel: ChannelCredentials, event: ConversationEvent): Promise<void>;
  callPolicy(tenantId: number): Promise<{ reject: boolean; message: string }>;
}

export interface SessionTiming {
  leaseTtlMs: number;
  renewMs: number;
  claimsPerTick: number;
  actionTimeoutMs: number;
  backoffMinMs?: number;
  backoffMaxMs?: number;
}

export interface SessionHostDeps {
  db: Database;
  jobs: JobQueue;
  logger: Logger;
  /** The app's platform object: the key of the session-queue job handlers. */
  platform: object;
  secret: string;
  drivers: ReadonlyMap<ChannelType, SessionDriver>;
  timing: SessionTiming;
  ports: SessionHostPorts;
  nodeId?: string;
}

interface Local {
  channelId: number;
  tenantId: number;
  pairingNumber: string | null;
  live: LiveSession | null;
  /** Each open gets a number: a closed() of an earlier open is ignored. */
  generation: number;
  timer: NodeJS.Timeout | null;
  backoffMs: number;
  ended: boolean;
  channel: { row: ChannelRow; until: number } | null;
}

const SIDE_KINDS = new Set(['session', 'session-sync', 'battery']);
const CHANNEL_ROW_TTL_MS = 5_000;
const STOPPED_BY: Record<Exclude<SessionCloseReason, 'lost'>, ChannelStatus> = {
  'logged-out': 'DISCONNECTED',
  timeout: 'TIMEOUT',
  conflict: 'CONFLICT',
};

export const newNodeId = (): string => `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`;

export function createSessionHost(deps: SessionHostDeps) {
  const { db, jobs, logger, timing, ports } = deps;
  const nodeId = deps.nodeId ?? newNodeId();
  const backoffMin = timing.backoffMinMs ?? 1_000;
  const backoffMax = timing.backoffMaxMs ?? 60_000;
  const locals = new Map<number, Local>();
  /** Work started by a tick that the tick does not wait for (opens, logouts): awaited on shutdown. */
  const background = new Set<Promise<unknown>>();
  let started = false;
  let stopped = false;
  let ticker: NodeJS.Timeout | null = null;
  let ticking: Promise<void> | null = null;
  let ticked = false;
  /** Sessions being logged out here (a tick must not start a second logout). */
  const stopping = new Set<number>();

  const track = (work: Promise<unknown>) => {
    const p = work.catch((error: unknown) => logger.error({ err: error }, 'session work failed'));
    background.add(p);
    void p.finally(() => background.delete(p));
  };

  const readChannel = (channelId: number) =>
    withSystem(db, 'channels.sessions', (tx) => findChannelById(tx, channelId));

  async function channelOf(local: Local): Promise<ChannelCredentials> {
    if (!local.channel || local.channel.until < Date.now()) {
      const row = await readChannel(local.channelId);
      if (row) local.channel = { row, until: Date.now() + CHANNEL_ROW_TTL_MS };
    }
    if (!local.channel) throw new Error(`channel ${local.channelId} is gone`);
    return toCredentials(local.channel.row);
  }

  async function runJob(data: unknown): Promise<unknown> {
    const job = sessionJobSchema.parse(data);
    if (job.kind === SESSION_ACTION_JOB.name) {
      const action = sessionActionSchema.parse(job.data);
      return runActionJob(locals.get(action.channelId)?.live ?? null, action);
    }
    const handler = sessionJobHandler(deps.platform, job.kind);
    if (!handler) throw new Error(`no session job handler for ${job.kind}`);
    return handler(job.data);
  }

  /** Leaves this node: the queue worker stops, the socket is closed (auth kept) or logged out. */
  async function detach(local: Local, how: 'close' | 'logout' | 'none'): Promise<void> {
    local.ended = true;
    if (local.timer) clearTimeout(local.timer);
    local.timer = null;
    if (locals.get(local.channelId) === local) locals.delete(local.channelId);
    await jobs.offWork(sessionQueueName(local.channelId)).catch(() => undefined);
    const live = local.live;
    local.live = null;
    if (!live || how === 'none') return;
    try {
      await (how === 'close' ? live.close() : live.logout());
    } catch (error) {
      logger.warn({ err: error, channelId: local.channelId }, `session ${how} failed`);
    }
  }

  function reconnectLater(local: Local): void {
    if (local.ended) return;
    const delay = local.backoffMs;
    local.backoffMs = Math.min(delay * 2, backoffMax);
    local.timer = setTimeout(() => {
      local.timer = null;
      track(connect(local));
    }, delay);
  }

  async function closed(local: Local, generation: number, reason: SessionCloseReason): Promise<void> {
    if (local.ended || local.generation !== generation) return;
    logger.info({ channelId: local.channelId, reason }, 'session closed');
    local.live = null;
    if (reason === 'lost') {
      await ports.status(local.tenantId, local.channelId, 'OPENING', { retry: true });
      reconnectLater(local);
      return;
    }
    await detach(local, 'none');
    if (reason === 'logged-out') await authOf(local).clear();
    await lease.unwantSession(db, nodeId, local.channelId);
    await ports.status(local.tenantId, local.channelId, STOPPED_BY[reason]);
  }

  const authOf = (local: Pick<Local, 'tenantId' | 'channelId'>) =>
    createAuthStateStore({ db, secret: deps.secret, tenantId: local.tenantId, channelId: local.channelId });

  function contextOf(local: Local, generation: number): SessionContext {
    const log = logger.child({ channelId: local.channelId });
    return {
      auth: authOf(local),
      pairingNumber: local.pairingNumber,
      logger: log,
      async emit(events) {
        const channel = await channelOf(local);
        for (const event of events) {
          if (SIDE_KINDS.has(event.kind)) {
            const side = event as SessionSideEvent;
            if (side.kind === 'session' && side.status === 'CONNECTED') local.backoffMs = backoffMin;
            await ports.sessionEvent(channel, side);
          } else {
            await ports.conversation(channel, event as ConversationEvent);
          }
        }
      },
      closed: (reason) => track(closed(local, generation, reason)),
      callPolicy: () => ports.callPolicy(local.tenantId),
    };
  }

  async function connect(local: Local): Promise<void> {
    if (local.ended) return;
    const generation = ++local.generation;
    try {
      const row = await readChannel(local.channelId);
      if (!row) return void (await detach(local, 'none'));
      local.channel = { row, until: Date.now() + CHANNEL_ROW_TTL_MS };
      const driver = deps.drivers.get(row.type);
      if (!driver) throw new Error(`no session driver for channel type ${row.type}`);
      const live = await driver.open(toCredentials(row), contextOf(local, generation));
      if (local.ended || local.generation !== generation) {
        await live.close();
        return;
      }
      local.live = live;
    } catch (error) {
      if (local.ended || local.generation !== generation) return;
      logger.warn({ err: error, channelId: local.channelId }, 'session open failed');
      await ports.status(local.tenantId, local.channelId, 'OPENING', { retry: true }).catch(() => undefined);
      reconnectLater(local);
    }
  }

  async function attach(held: lease.HeldLease): Promise<void> {
    const local: Local = {
      channelId: held.channelId,
      tenantId: held.tenantId,
      pairingNumber: held.pairingNumber,
      live: null,
      generation: 0,
      timer: null,
      backoffMs: backoffMin,
      ended: false,
      channel: null,
    };
    locals.set(held.channelId, local);
    const queue = sessionQueueName(held.channelId);
    await jobs.ensureQueue(queue);
    await jobs.workQueue(queue, runJob);
    logger.info({ channelId: held.channelId, node: nodeId }, 'session claimed');
    track(connect(local));
  }

  /** Nobody wants it: log out (the phone forgets the device), forget the auth state, give the lease up. */
  async function stopUnwanted(held: lease.HeldLease): Promise<void> {
    const local = locals.get(held.channelId);
    if (local) await detach(local, 'logout');
    await authOf(held).clear();
    await lease.releaseLeases(db, nodeId, [held.channelId]);
  }

  async function runTick(): Promise<void> {
    ticked = true;
    const held = await lease.renewLeases(db, nodeId, timing.leaseTtlMs);
    const heldIds = new Set(held.map((h) => h.channelId));
    const lost = [...locals.values()].filter((l) => !heldIds.has(l.channelId));
    if (lost.length > 0) {
      const existing = await lease.existingSessions(
        db,
        lost.map((l) => l.channelId),
      );
      // A lease taken away: another node runs it now (close, keep auth); a deleted channel: unlink the device.
      // Awaited: the queue worker must be off before this node could claim the session again below.
      await Promise.all(lost.map((local) => detach(local, existing.has(local.channelId) ? 'close' : 'logout')));
    }
    for (const h of held) {
      if (!h.wanted) {
        if (stopping.has(h.channelId)) continue;
        stopping.add(h.channelId);
        track(stopUnwanted(h).finally(() => stopping.delete(h.channelId)));
      } else if (!locals.has(h.channelId)) await attach(h);
    }
    if (stopped) return;
    for (const h of await lease.claimLeases(db, nodeId, timing.leaseTtlMs, timing.claimsPerTick)) await attach(h);
  }

  /** One tick at a time; a tick asked for while one runs runs right after it. */
  function tick(): Promise<void> {
    if (ticking) return ticking.then(() => tick());
    ticking = runTick()
      .catch((error: unknown) => logger.error({ err: error }, 'session supervisor tick failed'))
      .finally(() => {
        ticking = null;
      });
    return ticking;
  }

  function schedule(delayMs: number): void {
    if (!started || stopped) return;
    if (ticker) clearTimeout(ticker);
    ticker = setTimeout(() => {
      ticker = null;
      void tick().finally(() => schedule(timing.renewMs));
    }, delayMs);
  }

  return {
    nodeId,
    /** Starts the supervisor (nodes with workers on). */
    start(): void {
      if (started) return;
      started = true;
      schedule(0);
    },
    tick,
    /** A session was asked for (connect, new QR, disconnect): tick now instead of at the next interval. */
    kick(): void {
      if (started && !stopped) schedule(0);
    },
    /** Shutdown: close every session here (auth kept) and give their leases up at once. */
    async stop(): Promise<void> {
      stopped = true;
      if (ticker) clearTimeout(ticker);
      ticker = null;
      await ticking;
      await Promise.all([...locals.values()].map((local) => detach(local, 'close')));
      await Promise.all([...background]);
      if (ticked) await lease.releaseLeases(db, nodeId, 'all');
    },
    live(channelId: number): LiveSession | null {
      return locals.get(channelId)?.live ?? null;
    },
    running(): number[] {
      return [...locals.keys()];
    },
    driver(type: ChannelType): SessionDriver | undefined {
      return deps.drivers.get(type);
    },
    drivers(): SessionDriver[] {
      return [...deps.drivers.values()];
    },
    /** Runs a provider action on the session's owner: here, or through its queue. */
    async act(action: SessionAction): Promise<unknown> {
      const live = locals.get(action.channelId)?.live;
      if (live) return performAction(live, action);
      return actOnOwner(
        {
          jobs,
          timeoutMs: timing.actionTimeoutMs,
          ownerAlive: async () => (await lease.findLiveOwner(db, action.channelId)) !== null,
        },
        action,
      );
    },
  };
}

export type SessionHost = ReturnType<typeof createSessionHost>;
