/**
 * What only a live WhatsApp session offers (group members, the number's groups, the phone's contacts, older history,
 * mentions, number checks in bulk), asked for on any node. Like the provider actions of session-actions.ts, an
 * operation runs here when this node owns the session, else as a job of its own kind in the session's queue (the
 * owner works it: session-jobs.ts `registerSessionJobHandler`) whose output the caller awaits up to a timeout.
 * The LiveSession methods behind them are optional: a session without one answers LiveOpUnsupportedError, which
 * routes turn into ERR_CHANNEL_TYPE_UNSUPPORTED. No live owner: SessionNotRunningError (ERR_WAPP_NOT_INITIALIZED).
 *
 * Gateways (Evolution, Wuzapi) hold their sessions themselves: a channel whose adapter offers `live` (GatewayLive)
 * runs every operation on the requesting node over the gateway's API, and the older history it fetches is handed to
 * ingestion like webhook events (in the background: the history watcher reports the progress from what is stored).
 */
import { z } from 'zod';
import type { JobQueue, JobSpec } from '../../../platform/jobs/queue.js';
import {
  ProviderError,
  type ChannelCredentials,
  type GatewayLive,
  type InboundEvent,
  type SendResult,
} from '../channels.adapter.js';
import { SessionNotRunningError, type SessionAction } from './session-actions.js';
import type { GroupParticipant, LiveSession, NumberCheck } from './session-driver.js';
import { enqueueSessionJob, registerSessionJobHandler, sessionQueueName } from './session-jobs.js';
import { findLiveOwner } from './session-lease.js';
import type { SessionHost } from './session-host.js';

/** The session runs, but its driver cannot do this (a driver without the optional method). */
export class LiveOpUnsupportedError extends ProviderError {
  constructor(readonly op: string) {
    super('ERR_CHANNEL_TYPE_UNSUPPORTED', true);
    this.name = 'LiveOpUnsupportedError';
  }
}

/** Numbers checked per operation (one job round trip for a batch). */
export const CHECK_BATCH = 50;

const channelId = z.number().int().positive();
export const liveOpSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('capabilities'), channelId }),
  z.object({ op: z.literal('groupParticipants'), channelId, groupId: z.string().min(1).max(200) }),
  z.object({ op: z.literal('listGroups'), channelId }),
  z.object({ op: z.literal('listContacts'), channelId }),
  z.object({
    op: z.literal('requestHistory'),
    channelId,
    chatId: z.string().min(1).max(200).nullable(),
    limit: z.number().int().positive(),
  }),
  z.object({
    op: z.literal('sendMention'),
    channelId,
    to: z.string().min(1).max(200),
    body: z.string().max(20_000),
    mentions: z.array(z.string().regex(/^\d{5,20}$/)).max(2_000),
  }),
  z.object({
    op: z.literal('checkNumbers'),
    channelId,
    numbers: z
      .array(z.string().regex(/^\d{5,20}$/))
      .min(1)
      .max(CHECK_BATCH),
  }),
]);
export type LiveOp = z.infer<typeof liveOpSchema>;

/** Which optional operations the running session has. */
export interface LiveCapabilities {
  groupParticipants: boolean;
  listGroups: boolean;
  listContacts: boolean;
  requestHistory: boolean;
  sendMention: boolean;
}

/** One number's check; `failed`: WhatsApp could not answer for it. */
export type CheckedNumber = { number: string } & ({ failed: false; check: NumberCheck } | { failed: true });

/** What each operation answers. */
export interface LiveOpResults {
  capabilities: LiveCapabilities;
  groupParticipants: GroupParticipant[];
  listGroups: { id: string; subject: string; participants: number }[];
  listContacts: { number: string; name: string | null }[];
  requestHistory: number;
  sendMention: SendResult;
  checkNumbers: CheckedNumber[];
}

type OpOf<K extends LiveOp['op']> = Extract<LiveOp, { op: K }>;

/** Never retried: the requester waits for one answer and gives up after its timeout. */
export const LIVE_OP_JOB: JobSpec<LiveOp> = {
  name: 'channels.session-live-op',
  schema: liveOpSchema,
  retryLimit: 0,
  expireInSeconds: 120,
};

const outcomeSchema = z.union([
  z.object({ ok: z.literal(true), result: z.unknown() }),
  z.object({
    ok: z.literal(false),
    reason: z.enum(['notRunning', 'unsupported', 'provider']),
    permanent: z.boolean(),
    message: z.string(),
  }),
]);
type LiveOpOutcome = z.infer<typeof outcomeSchema>;

/** What the operations need of a session: a stateful session of this node, or a gateway's API (gatewayTarget). */
export type LiveTarget = Pick<
  LiveSession,
  'checkNumber' | 'groupParticipants' | 'listGroups' | 'listContacts' | 'requestHistory' | 'sendMention'
>;

function need<M extends keyof LiveTarget>(live: LiveTarget, method: M): NonNullable<LiveTarget[M]> {
  const fn = live[method];
  if (typeof fn !== 'function') throw new LiveOpUnsupportedError(method);
  return (fn as (...args: never[]) => unknown).bind(live) as NonNullable<LiveTarget[M]>;
}

/**
 * A gateway's API as a live target: its fetched history goes to `deliver` (ingestion), one event after another, in
 * the background; `requestHistory` answers how many messages were fetched.
 */
export function gatewayTarget(gateway: GatewayLive, deliver: (events: InboundEvent[]) => Promise<void>): LiveTarget {
  const { fetchHistory } = gateway;
  return {
    checkNumber: (number) => gateway.checkNumber(number),
    ...(gateway.groupParticipants ? { groupParticipants: (id: string) => gateway.groupParticipants!(id) } : {}),
    ...(gateway.listGroups ? { listGroups: () => gateway.listGroups!() } : {}),
    ...(gateway.listContacts ? { listContacts: () => gateway.listContacts!() } : {}),
    ...(gateway.sendMention
      ? { sendMention: (to: string, body: string, mentions: string[]) => gateway.sendMention!(to, body, mentions) }
      : {}),
    ...(fetchHistory
      ? {
          requestHistory: async (chatId: string | null, limit: number) => {
            const events = (await fetchHistory.call(gateway, chatId, limit)).filter((e) => e.kind === 'message');
            void deliver(events);
            return events.length;
          },
        }
      : {}),
  };
}

/** Runs an operation on a live session of this node, or on a gateway. */
export async function performLiveOp(live: LiveTarget, op: LiveOp): Promise<unknown> {
  switch (op.op) {
    case 'capabilities':
      return {
        groupParticipants: typeof live.groupParticipants === 'function',
        listGroups: typeof live.listGroups === 'function',
        listContacts: typeof live.listContacts === 'function',
        requestHistory: typeof live.requestHistory === 'function',
        sendMention: typeof live.sendMention === 'function',
      } satisfies LiveCapabilities;
    case 'groupParticipants':
      return need(live, 'groupParticipants')(op.groupId);
    case 'listGroups':
      return need(live, 'listGroups')();
    case 'listContacts':
      return need(live, 'listContacts')();
    case 'requestHistory':
      return need(live, 'requestHistory')(op.chatId, op.limit);
    case 'sendMention':
      return need(live, 'sendMention')(op.to, op.body, op.mentions);
    case 'checkNumbers': {
      // One number WhatsApp cannot answer for does not sink the others; a session that went away does.
      const checked: CheckedNumber[] = [];
      for (const number of op.numbers) {
        try {
          checked.push({ number, failed: false, check: await live.checkNumber(number) });
        } catch (error) {
          if (!(error instanceof ProviderError) || error instanceof SessionNotRunningError) throw error;
          checked.push({ number, failed: true });
        }
      }
      return checked;
    }
  }
}

/** The owner's side of a live-op job: its answer (or the refusal) becomes the job's output. */
export async function runLiveOpJob(live: LiveSession | null, op: LiveOp): Promise<LiveOpOutcome> {
  if (!live) return { ok: false, reason: 'notRunning', permanent: false, message: 'ERR_WAPP_NOT_INITIALIZED' };
  try {
    return { ok: true, result: (await performLiveOp(live, op)) ?? null };
  } catch (error) {
    if (error instanceof LiveOpUnsupportedError) {
      return { ok: false, reason: 'unsupported', permanent: true, message: error.message };
    }
    if (!(error instanceof ProviderError)) throw error;
    return { ok: false, reason: 'provider', permanent: error.permanent, message: error.message };
  }
}

/** A channel served by a gateway: its API and where its fetched history goes. */
export interface GatewayChannel {
  live: GatewayLive;
  deliver(events: InboundEvent[]): Promise<void>;
}

export interface LiveOpsDeps {
  jobs: JobQueue;
  /** The gateway of a channel whose adapter offers `live`; null for stateful sessions (and unknown channels). */
  gateway?(channelId: number): Promise<GatewayChannel | null>;
  /** The session host of this node (its live sessions and its database). */
  host: Pick<SessionHost, 'live' | 'act'>;
  ownerAlive(channelId: number): Promise<boolean>;
  timeoutMs: number;
  pollMs?: number;
}

/** The requester's side: here when this node runs the session, else through the session's queue. */
export function createLiveOps(deps: LiveOpsDeps) {
  async function viaOwner(op: LiveOp): Promise<unknown> {
    if (!(await deps.ownerAlive(op.channelId))) throw new SessionNotRunningError(op.channelId);
    const queue = sessionQueueName(op.channelId);
    const id = await enqueueSessionJob(deps.jobs, op.channelId, LIVE_OP_JOB, op);
    if (!id) throw new SessionNotRunningError(op.channelId);
    const until = Date.now() + deps.timeoutMs;
    while (Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, deps.pollMs ?? 100));
      const job = await deps.jobs.jobState(queue, id);
      if (!job || job.state === 'created' || job.state === 'active' || job.state === 'retry') continue;
      if (job.state !== 'completed') throw new ProviderError(`session operation ${job.state}`, false);
      const outcome = outcomeSchema.parse(job.output);
      if (outcome.ok) return outcome.result;
      if (outcome.reason === 'notRunning') throw new SessionNotRunningError(op.channelId);
      if (outcome.reason === 'unsupported') throw new LiveOpUnsupportedError(op.op);
      throw new ProviderError(outcome.message, outcome.permanent);
    }
    await deps.jobs.cancel(queue, id).catch(() => undefined);
    throw new SessionNotRunningError(op.channelId);
  }

  /** The gateway's API of a channel that has no session here (read only then: a live session needs no lookup). */
  async function gatewayOf(channelId: number): Promise<LiveTarget | null> {
    const gateway = await deps.gateway?.(channelId);
    return gateway ? gatewayTarget(gateway.live, gateway.deliver) : null;
  }

  return {
    /** Runs one operation where the session lives; the answer is the operation's (LiveOpResults). */
    async run<K extends LiveOp['op']>(op: OpOf<K>): Promise<LiveOpResults[K]> {
      const parsed = liveOpSchema.parse(op);
      const live = deps.host.live(parsed.channelId) ?? (await gatewayOf(parsed.channelId));
      const result = live ? await performLiveOp(live, parsed) : await viaOwner(parsed);
      return result as LiveOpResults[K];
    },
    /**
     * Runs it only if this node runs the session (a job already in the session's queue: asking the owner through
     * that same queue could wait behind itself).
     */
    async local<K extends LiveOp['op']>(op: OpOf<K>): Promise<LiveOpResults[K]> {
      const parsed = liveOpSchema.parse(op);
      const live = deps.host.live(parsed.channelId) ?? (await gatewayOf(parsed.channelId));
      if (!live) throw new SessionNotRunningError(parsed.channelId);
      return (await performLiveOp(live, parsed)) as LiveOpResults[K];
    },
    /** A provider action of session-actions.ts (edit, delete, react, one number's check); a gateway checks itself. */
    async act(action: SessionAction): Promise<unknown> {
      if (action.op === 'checkNumber' && !deps.host.live(action.channelId)) {
        const gateway = await deps.gateway?.(action.channelId);
        if (gateway) return gateway.live.checkNumber(action.number);
      }
      return deps.host.act(action);
    },
  };
}

export type LiveOps = ReturnType<typeof createLiveOps>;

/** Keyed by the app's platform object (tests build several apps in one process). */
const bound = new WeakMap<object, LiveOps>();

/**
 * Wires the live operations of an app: the owner's job handler in the session queues and the requester other
 * modules reach through `liveOpsOf(platform)`. Called once by the channels module, with its host.
 */
export function bindLiveOps(
  platform: object,
  deps: Omit<LiveOpsDeps, 'ownerAlive' | 'gateway'> & {
    db: Parameters<typeof findLiveOwner>[0];
    /** A channel's credentials when its adapter offers gateway operations (read on the system path). */
    gatewayChannel(channelId: number): Promise<{ channel: ChannelCredentials; live: GatewayLive } | null>;
    /** Hands one fetched event of a channel to ingestion. */
    receive(channel: ChannelCredentials, event: InboundEvent): Promise<void>;
    onDeliveryError(channelId: number, error: unknown): void;
  },
): LiveOps {
  const ops = createLiveOps({
    ...deps,
    ownerAlive: async (id) => (await findLiveOwner(deps.db, id)) !== null,
    async gateway(channelId) {
      const found = await deps.gatewayChannel(channelId);
      if (!found) return null;
      return {
        live: found.live,
        async deliver(events) {
          try {
            for (const event of events) await deps.receive(found.channel, event);
          } catch (error) {
            deps.onDeliveryError(channelId, error);
          }
        },
      };
    },
  });
  registerSessionJobHandler(platform, LIVE_OP_JOB.name, (data) => {
    const op = liveOpSchema.parse(data);
    return runLiveOpJob(deps.host.live(op.channelId), op);
  });
  bound.set(platform, ops);
  return ops;
}

export function liveOpsOf(platform: object): LiveOps {
  const ops = bound.get(platform);
  if (!ops) throw new Error('the channels module has not bound its live session operations');
  return ops;
}
