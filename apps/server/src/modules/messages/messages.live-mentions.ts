/**
 * Messages that mention a group's members (client-contract §6). Mention messages are agents' sends: the same pending
 * row, ticket touch, chat:create / ticket:update events and ack updates as POST /messages/{ticketId}; only the job
 * differs (`messages.send-mention`, with the mentioned numbers in its payload; in the session's queue for a stateful
 * session, the shared queue for a gateway), because a plain send carries no mentions. Its attempts follow the send
 * job's rules (counted before the provider call; a message with a provider id is never sent again).
 */
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { MessageEventDto } from '@conversa/shared';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import type { AuthedContext } from '../../platform/http/auth.js';
import { fail } from '../../platform/http/errors.js';
import type { JobSpec } from '../../platform/jobs/queue.js';
import { enqueueChannelJob, findSession, loadChannelCredentials, ProviderError } from '../channels/index.js';
import { contacts } from '../contacts/contacts.tables.js';
import { findVisibleTicket, loadTicketDto, touchTicketOnOutbound } from '../tickets/index.js';
import { loadMessageDto } from './messages.dto.js';
import { groupTicket, participantsOf } from './messages.live-groups.js';
import { isStatefulType, onSession, type LiveDeps } from './messages.live-session.js';
import { publishSent } from './messages.pipeline.js';
import { findMessage, insertMessageOnce, updateMessage } from './messages.repository.js';
import { recipientFor, recordSendOutcome, SEND_MAX_ATTEMPTS } from './messages.send-job.js';

/** A member's number from what clients send: digits, or a WhatsApp id (`<digits>@c.us`, `@s.whatsapp.net`). */
export function participantNumber(value: string | number): string | null {
  const text = String(value).trim();
  const match = /^\+?(\d{5,20})(?:@(?:c\.us|s\.whatsapp\.net))?$/.exec(text);
  return match ? match[1]! : null;
}

/** The body of a visible mention: every mentioned number not yet tagged gets its `@<number>` tag. */
export function withMentionTags(body: string, numbers: readonly string[]): string {
  const missing = numbers.filter((n) => !new RegExp(`@${n}(?!\\d)`).test(body));
  if (missing.length === 0) return body;
  return `${body.trimEnd()}\n${missing.map((n) => `@${n}`).join(' ')}`;
}

export const MENTION_SEND_JOB: JobSpec<MentionSendPayload> = {
  name: 'messages.send-mention',
  schema: z.object({
    tenantId: z.number().int().positive(),
    messageId: z.number().int().positive(),
    mentions: z.array(z.string().regex(/^\d{5,20}$/)).max(2_000),
  }),
  retryLimit: SEND_MAX_ATTEMPTS - 1,
  retryDelaySeconds: 5,
  expireInSeconds: 120,
};
export interface MentionSendPayload {
  tenantId: number;
  messageId: number;
  mentions: string[];
}

export type MentionMode = 'list' | 'all' | 'ghost';

export interface MentionInput {
  body: string;
  mode: MentionMode;
  participants?: (string | number)[];
}

/** The agent's send of a mention message; stored and announced exactly like POST /messages/{ticketId}. */
export async function sendMention(
  deps: LiveDeps,
  ctx: AuthedContext,
  ticketId: number,
  input: MentionInput,
): Promise<MessageEventDto> {
  const { pipeline } = deps;
  const db = pipeline.db;
  const target = await withTenant(db, ctx, async (tx) => {
    const ticket = await findVisibleTicket(tx, ctx, ticketId);
    if (!ticket) throw fail('ERR_NO_TICKET_FOUND');
    if (ticket.status === 'closed') throw fail('ERR_TICKET_CLOSED');
    const found = await groupTicket(tx, ctx, { id: ticket.id });
    const stateful = isStatefulType(found.channel.type);
    if (stateful && !(await findSession(tx, ctx.tenantId, found.channel.id))) throw fail('ERR_WAPP_NOT_INITIALIZED');
    return found;
  });
  const channelId = target.channel.id;
  const capabilities = await onSession(() => deps.ops().run({ op: 'capabilities', channelId }));
  if (!capabilities.sendMention) throw fail('ERR_CHANNEL_TYPE_UNSUPPORTED');
  let mentions: string[];
  if (input.mode === 'list') {
    const numbers = (input.participants ?? []).map(participantNumber);
    if (numbers.length === 0 || numbers.some((n) => n === null)) throw fail('ERR_VALIDATION', 'participants');
    mentions = [...new Set(numbers as string[])];
  } else {
    if (!capabilities.groupParticipants) throw fail('ERR_CHANNEL_TYPE_UNSUPPORTED');
    mentions = [...new Set((await participantsOf(deps, channelId, target.contact.number!)).map((p) => p.number))];
  }
  // A ghost mention notifies everyone without a visible tag; the others show the tags they notify.
  const body = input.mode === 'ghost' ? input.body : withMentionTags(input.body, mentions);

  const stored = await withTenant(db, ctx, async (tx) => {
    // Re-read: the ticket may have been closed or taken away while the session answered.
    const ticket = await findVisibleTicket(tx, ctx, ticketId);
    if (!ticket) throw fail('ERR_NO_TICKET_FOUND');
    if (ticket.status === 'closed') throw fail('ERR_TICKET_CLOSED');
    const row = await insertMessageOnce(tx, {
      tenantId: ctx.tenantId,
      ticketId: ticket.id,
      contactId: ticket.contactId,
      channelId: ticket.channelId,
      userId: ctx.userId,
      idFront: null,
      fromMe: true,
      read: true,
      body,
      mediaType: 'chat',
      mediaKey: null,
      mediaName: null,
      mediaMime: null,
      mediaSize: null,
      mediaStatus: 'none',
      isSticker: false,
      ack: 0,
      status: 'pending',
      sendType: null,
      quotedMsgId: null,
    });
    if (!row) throw fail('ERR_CREATING_MESSAGE');
    await touchTicketOnOutbound(tx, ticket.id, body, new Date());
    const payload = { tenantId: ctx.tenantId, messageId: row.id, mentions };
    await enqueueChannelJob(tx, pipeline.jobs, ctx.tenantId, channelId, MENTION_SEND_JOB, payload);
    const dto = await loadTicketDto(tx, ticket.id);
    return { message: await loadMessageDto(tx, row, pipeline.links, dto), ticket: dto };
  });
  publishSent(pipeline.events, ctx.tenantId, stored.message, stored.ticket);
  return stored.message;
}

/**
 * The worker's side of `messages.send-mention`: from the session's queue next to the socket (stateful sessions), or
 * from the shared queue on any node (gateways).
 */
export async function runMentionSend(deps: LiveDeps, payload: MentionSendPayload): Promise<void> {
  const { pipeline } = deps;
  const ctx = systemContext(payload.tenantId);
  const prepared = await withTenant(pipeline.db, ctx, async (tx) => {
    const found = await findMessage(tx, payload.messageId);
    if (!found || !found.fromMe || found.messageId || found.isDeleted || found.isDelayed) return null;
    const message = (await updateMessage(tx, found.id, { sendAttempts: found.sendAttempts + 1 }))!;
    const channel = message.channelId ? await loadChannelCredentials(tx, message.channelId) : null;
    const [contact] = await tx.select().from(contacts).where(eq(contacts.id, message.contactId)).limit(1);
    return { message, channel, to: channel && contact ? recipientFor(channel.type, contact) : null };
  });
  if (!prepared) return;
  const { channel, to } = prepared;
  await recordSendOutcome(pipeline, payload, prepared.message.sendAttempts, async () => {
    if (!channel || !to) throw new ProviderError('the message has no group to go to', true);
    return deps.ops().local({
      op: 'sendMention',
      channelId: channel.id,
      to,
      body: prepared.message.body,
      mentions: payload.mentions,
    });
  });
}
