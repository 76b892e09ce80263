/**
 * Provider actions on a stateful session (edit, delete, react, check a number) asked for on any node: run here when
 * this node owns the session, else as a job in the session's queue, which only the owner works; the caller awaits
 * the job's output (up to a timeout). No live owner, or none that answers in time: ERR_WAPP_NOT_INITIALIZED.
 */
import { z } from 'zod';
import type { JobQueue, JobSpec } from '../../../platform/jobs/queue.js';
import { ProviderError } from '../channels.adapter.js';
import type { LiveSession } from './session-driver.js';
import { enqueueSessionJob, sessionQueueName } from './session-jobs.js';

/** The session does not run on any node (or its owner did not answer): transient, a send is retried later. */
export class SessionNotRunningError extends ProviderError {
  constructor(readonly channelId: number) {
    super('ERR_WAPP_NOT_INITIALIZED', false);
    this.name = 'SessionNotRunningError';
  }
}

const target = { channelId: z.number().int().positive(), to: z.string().min(1), providerMessageId: z.string().min(1) };
export const sessionActionSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('edit'), ...target, body: z.string() }),
  z.object({ op: z.literal('delete'), ...target }),
  z.object({ op: z.literal('react'), ...target, emoji: z.string() }),
  z.object({ op: z.literal('checkNumber'), channelId: target.channelId, number: z.string().min(1) }),
]);
export type SessionAction = z.infer<typeof sessionActionSchema>;

/** Never retried: the requester waits for one answer and gives up after its timeout. */
export const SESSION_ACTION_JOB: JobSpec<SessionAction> = {
  name: 'channels.session-action',
  schema: sessionActionSchema,
  retryLimit: 0,
  expireInSeconds: 60,
};

const outcomeSchema = z.union([
  z.object({ ok: z.literal(true), result: z.unknown() }),
  z.object({ ok: z.literal(false), notRunning: z.boolean(), permanent: z.boolean(), message: z.string() }),
]);
type ActionOutcome = z.infer<typeof outcomeSchema>;

export async function performAction(live: LiveSession, action: SessionAction): Promise<unknown> {
  switch (action.op) {
    case 'edit':
      return live.edit(action.to, action.providerMessageId, action.body);
    case 'delete':
      return live.delete(action.to, action.providerMessageId);
    case 'react':
      return live.react(action.to, action.providerMessageId, action.emoji);
    case 'checkNumber':
      return live.checkNumber(action.number);
  }
}

/** The owner's side of an action job: its answer (or the provider's refusal) becomes the job's output. */
export async function runActionJob(live: LiveSession | null, action: SessionAction): Promise<ActionOutcome> {
  if (!live) return { ok: false, notRunning: true, permanent: false, message: 'ERR_WAPP_NOT_INITIALIZED' };
  try {
    return { ok: true, result: (await performAction(live, action)) ?? null };
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return { ok: false, notRunning: false, permanent: error.permanent, message: error.message };
  }
}

/** The requester's side on a node that does not run the session. */
export async function actOnOwner(
  deps: { jobs: JobQueue; timeoutMs: number; pollMs?: number; ownerAlive: () => Promise<boolean> },
  action: SessionAction,
): Promise<unknown> {
  if (!(await deps.ownerAlive())) throw new SessionNotRunningError(action.channelId);
  const queue = sessionQueueName(action.channelId);
  const id = await enqueueSessionJob(deps.jobs, action.channelId, SESSION_ACTION_JOB, action);
  if (!id) throw new SessionNotRunningError(action.channelId);
  const until = Date.now() + deps.timeoutMs;
  while (Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, deps.pollMs ?? 100));
    const job = await deps.jobs.jobState(queue, id);
    if (!job || job.state === 'created' || job.state === 'active' || job.state === 'retry') continue;
    if (job.state !== 'completed') throw new ProviderError(`session action ${job.state}`, false);
    const outcome = outcomeSchema.parse(job.output);
    if (outcome.ok) return outcome.result;
    if (outcome.notRunning) throw new SessionNotRunningError(action.channelId);
    throw new ProviderError(outcome.message, outcome.permanent);
  }
  await deps.jobs.cancel(queue, id).catch(() => undefined);
  throw new SessionNotRunningError(action.channelId);
}
