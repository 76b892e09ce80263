/**
 * The per-channel job queue of a stateful session (`session.<channelId>`): only the lease owner works it, so a job in
 * it runs where the session's socket lives. It carries the message pipeline's sends and the provider actions asked
 * for on another node. A job names its kind (the JobSpec it was made from) and the owner runs that kind's handler,
 * registered by the module that owns the work (the messages module registers `messages.send`).
 */
import { z } from 'zod';
import type { Tx } from '../../../platform/db/client.js';
import type { TenantId } from '../../../platform/db/tenancy.js';
import type { EnqueueOptions, JobQueue, JobSpec } from '../../../platform/jobs/queue.js';
import { findSession } from './session-lease.js';

export const sessionQueueName = (channelId: number): string => `session.${channelId}`;

export const sessionJobSchema = z.object({ kind: z.string().min(1), data: z.unknown() });
export type SessionJob = z.infer<typeof sessionJobSchema>;

/** What the owner runs for a job of a kind; its answer becomes the job's output. */
export type SessionJobHandler = (data: unknown) => Promise<unknown>;

/** Keyed by the app's platform object (tests build several apps in one process). */
const handlers = new WeakMap<object, Map<string, SessionJobHandler>>();

export function registerSessionJobHandler(platform: object, kind: string, handler: SessionJobHandler): void {
  const map = handlers.get(platform) ?? new Map<string, SessionJobHandler>();
  map.set(kind, handler);
  handlers.set(platform, map);
}

export function sessionJobHandler(platform: object, kind: string): SessionJobHandler | undefined {
  return handlers.get(platform)?.get(kind);
}

/** Enqueues a job of `spec` (its schema and retry policy) into the channel's session queue. */
export async function enqueueSessionJob<P>(
  jobs: JobQueue,
  channelId: number,
  spec: JobSpec<P>,
  payload: P,
  options: Omit<EnqueueOptions, 'queue'> = {},
): Promise<string | null> {
  const data = spec.schema.parse(payload);
  const wrapper: JobSpec<SessionJob> = { ...spec, schema: sessionJobSchema };
  return jobs.enqueue(wrapper, { kind: spec.name, data }, { ...options, queue: sessionQueueName(channelId) });
}

/** Enqueues several jobs of `spec` into the channel's session queue with one insert (in the caller's transaction). */
export async function enqueueSessionJobs<P>(
  jobs: JobQueue,
  channelId: number,
  spec: JobSpec<P>,
  payloads: P[],
  options: Pick<EnqueueOptions, 'tx'> = {},
): Promise<void> {
  const wrapper: JobSpec<SessionJob> = { ...spec, name: sessionQueueName(channelId), schema: sessionJobSchema };
  await jobs.enqueueMany(
    wrapper,
    payloads.map((payload) => ({ kind: spec.name, data: spec.schema.parse(payload) })),
    options,
  );
}

/**
 * Enqueues a channel's job where it must run: into the session queue when the channel runs a stateful session (its
 * row exists, made with its queue when the session was first started), else into the job's own queue. In the
 * caller's tenant transaction.
 */
export async function enqueueChannelJob<P>(
  tx: Tx,
  jobs: JobQueue,
  tenantId: TenantId,
  channelId: number | null,
  spec: JobSpec<P>,
  payload: P,
  options: Omit<EnqueueOptions, 'queue' | 'tx'> = {},
): Promise<void> {
  if (channelId !== null && (await findSession(tx, tenantId, channelId))) {
    await enqueueSessionJob(jobs, channelId, spec, payload, { ...options, tx });
    return;
  }
  await jobs.enqueue(spec, payload, { ...options, tx });
}
