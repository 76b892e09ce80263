/**
 * The chatbot's timers: the two jobs a run enqueues in its transaction (handlers: chatbot.jobs.ts) and the arming of
 * each. `chatbot_state.timer` holds the token of the one pending timer; a job whose token is no longer the ticket's
 * does nothing (chatbot.engine.ts `timeout`, `resume`).
 */
import crypto from 'node:crypto';
import { z } from 'zod';
import type { JobSpec } from '../../platform/jobs/queue.js';
import type { Run } from './chatbot.run.js';

const timerPayload = z.object({
  tenantId: z.number().int().positive(),
  ticketId: z.number().int().positive(),
  token: z.string().min(1).max(100),
});
export type TimerPayload = z.infer<typeof timerPayload>;

/** No answer within notResponseMessage.time minutes: the message, then the destination. */
export const CHATBOT_TIMEOUT_JOB: JobSpec<TimerPayload> = {
  name: 'chatbot.timeout',
  schema: timerPayload,
  retryLimit: 5,
  retryDelaySeconds: 5,
  expireInSeconds: 120,
};

/** A DelayField's wait is over: the rest of the step continues. */
export const CHATBOT_RESUME_JOB: JobSpec<TimerPayload> = {
  name: 'chatbot.resume',
  schema: timerPayload,
  retryLimit: 5,
  retryDelaySeconds: 5,
  expireInSeconds: 120,
};

/** A DelayField: the step continues at interaction `resumeIndex` in `seconds` (CHATBOT_RESUME_JOB). */
export async function armDelay(run: Run, resumeIndex: number, seconds: number): Promise<void> {
  const token = crypto.randomUUID();
  await run.patchState({ ...run.state, timer: token, timerKind: 'delay', resumeIndex });
  const payload = { tenantId: run.ctx.tenantId, ticketId: run.ticket.id, token };
  await run.deps.jobs.enqueue(CHATBOT_RESUME_JOB, payload, { tx: run.tx, startAfterSeconds: seconds });
}

/** The wait for an answer: no answer in `minutes` fires CHATBOT_TIMEOUT_JOB. */
export async function armTimeout(run: Run, minutes: number): Promise<void> {
  const token = crypto.randomUUID();
  await run.patchState({ ...run.state, timer: token, timerKind: 'timeout' });
  const payload = { tenantId: run.ctx.tenantId, ticketId: run.ticket.id, token };
  await run.deps.jobs.enqueue(CHATBOT_TIMEOUT_JOB, payload, { tx: run.tx, startAfterSeconds: minutes * 60 });
}
