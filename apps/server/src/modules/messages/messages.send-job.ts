/** The `messages.send` handler: one attempt to deliver a pending message through its channel's adapter. */
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { contactAddressOn, type ChannelType } from '@conversa/shared';
import type { Tx } from '../../platform/db/client.js';
import { asTenantId, systemContext, withTenant } from '../../platform/db/tenancy.js';
import { readAll } from '../../platform/storage/media-store.js';
import {
  enqueueSessionJob,
  findSession,
  loadChannelCredentials,
  ProviderError,
  type ChannelCredentials,
  type OutboundMessage,
  type SendResult,
} from '../channels/index.js';
import { type ContactRow } from '../contacts/index.js';
import { contacts } from '../contacts/contacts.tables.js';
import { customerWindowOf } from '../tickets/index.js';
import { loadMessageDto } from './messages.dto.js';
import type { JobSpec } from '../../platform/jobs/queue.js';
import type { SendPayload } from './messages.jobs.types.js';
import { publishMessage, type PipelineDeps } from './messages.pipeline.js';
import { sendErrorReason } from './messages.send-errors.js';
import { findMessage, updateMessage, type MessageRow } from './messages.repository.js';
import { fetchUrlMedia, needsUrlBytes } from './messages.url-media.js';

export const SEND_MAX_ATTEMPTS = 5;

interface PreparedSend {
  message: MessageRow;
  attempt: number;
  channel: ChannelCredentials | null;
  to: string | null;
  toGroup: boolean;
  replyTo: string | null;
  /** Meta channels: whether the customer-service window is open now; undefined for other channel types. */
  windowOpen?: boolean;
}

/** The contact's id on the channel's provider (Telegram chats by id, WhatsApp by number, ...). */
export function recipientFor(type: ChannelType, contact: ContactRow): string | null {
  // The one rule (packages/shared contact-address.ts): ticket creation refuses a channel where this is null.
  return contactAddressOn(type, contact);
}

/**
 * Counts the attempt (committed before the provider call, so a crash mid-send still counts). A send found in the
 * shared queue for a channel that runs a stateful session (queued before its session existed, or requeued) moves to
 * the session's queue instead, uncounted: only the session's owner can send it.
 */
async function prepareSend(
  tx: Tx,
  deps: PipelineDeps,
  payload: SendPayload,
  forwardWith: JobSpec<SendPayload> | undefined,
): Promise<PreparedSend | null> {
  const messageId = payload.messageId;
  const found = await findMessage(tx, messageId);
  // Sent already (the provider id is set), deleted, given up or not ours to send: nothing to do.
  if (!found || !found.fromMe || found.messageId || found.isDeleted || found.isDelayed) return null;
  if (forwardWith && found.channelId && (await findSession(tx, asTenantId(payload.tenantId), found.channelId))) {
    await enqueueSessionJob(deps.jobs, found.channelId, forwardWith, payload, { tx });
    return null;
  }
  const message = (await updateMessage(tx, messageId, { sendAttempts: found.sendAttempts + 1 }))!;
  const channel = message.channelId ? await loadChannelCredentials(tx, message.channelId) : null;
  const [contact] = await tx.select().from(contacts).where(eq(contacts.id, message.contactId)).limit(1);
  const quoted = message.quotedMsgId ? await findMessage(tx, message.quotedMsgId) : undefined;
  const window = channel
    ? await customerWindowOf(tx, { contactId: message.contactId, channelId: channel.id, channel: channel.type })
    : null;
  return {
    message,
    attempt: message.sendAttempts,
    channel,
    to: channel && contact ? recipientFor(channel.type, contact) : null,
    toGroup: contact?.isGroup ?? false,
    replyTo: quoted?.messageId ?? null,
    ...(window ? { windowOpen: window.open } : {}),
  };
}

async function outbound(
  deps: PipelineDeps,
  prepared: PreparedSend & { to: string; channel: ChannelCredentials },
): Promise<OutboundMessage> {
  const { message } = prepared;
  let media: OutboundMessage['media'] = null;
  let payload = message.outboundPayload ?? null;
  if (!message.mediaKey && needsUrlBytes(prepared.channel.type, payload)) {
    // A file by address (a chat flow's media) on a channel that sends bytes: fetched now, sent as a file.
    media = await fetchUrlMedia(payload, deps.outbound);
    payload = null;
  } else if (message.mediaKey) {
    const stored = await deps.store.get(message.mediaKey);
    if (!stored) throw new ProviderError('stored media is missing', true);
    media = {
      data: await readAll(stored.stream),
      mime: message.mediaMime ?? 'application/octet-stream',
      name: message.mediaName ?? 'file',
    };
  }
  return {
    to: prepared.to,
    ...(prepared.toGroup ? { toGroup: true } : {}),
    body: message.body,
    mediaType: message.mediaType,
    media,
    // Providers that fetch files themselves (the hub) get the stored file's signed link.
    mediaUrl: message.mediaKey ? deps.links.url(message.tenantId, message.id) : null,
    replyToProviderMessageId: prepared.replyTo,
    clientMessageId: clientMessageIdOf(message.tenantId, message.id),
    payload,
    ...(prepared.windowOpen === undefined ? {} : { windowOpen: prepared.windowOpen }),
  };
}

/**
 * The provider message id a stored message is sent under where the sender may choose it (WhatsApp sessions): the
 * same for every attempt, in WhatsApp's own shape (`3EB0` and upper-case hex), so an attempt repeated after a crash
 * is one message to WhatsApp.
 */
export function clientMessageIdOf(tenantId: number, messageId: number): string {
  const digest = crypto.createHash('sha256').update(`conversa:${tenantId}:${messageId}`).digest('hex');
  return `3EB0${digest.slice(0, 18).toUpperCase()}`;
}

async function deliver(deps: PipelineDeps, prepared: PreparedSend) {
  if (!prepared.channel) throw new ProviderError('the message has no channel', true);
  if (!prepared.to) throw new ProviderError('the contact has no id on this channel', true);
  const adapter = deps.adapters.get(prepared.channel.type);
  return adapter.send(
    prepared.channel,
    await outbound(deps, { ...prepared, to: prepared.to, channel: prepared.channel }),
  );
}

/**
 * The send job, from the shared `messages.send` queue (`forwardWith` is its spec: a stateful channel's send found
 * there moves to the session's queue) or from a session's queue (run by the session's owner). The same rules hold
 * for both: the attempt is counted before the provider call and a message with a provider id is never sent again,
 * so a job that comes back after its worker died (pg-boss expiry) does not send a message stored as sent.
 */
export async function runSend(
  deps: PipelineDeps,
  payload: SendPayload,
  forwardWith?: JobSpec<SendPayload>,
): Promise<void> {
  const ctx = systemContext(payload.tenantId);
  const prepared = await withTenant(deps.db, ctx, (tx) => prepareSend(tx, deps, payload, forwardWith));
  if (!prepared) return;
  if (payload.announce && prepared.attempt === 1) {
    const dto = await withTenant(deps.db, ctx, (tx) => loadMessageDto(tx, prepared.message, deps.links));
    publishMessage(deps.events, payload.tenantId, 'chat:create', dto);
  }
  await recordSendOutcome(deps, payload, prepared.attempt, () => deliver(deps, prepared));
}

/**
 * One attempt's outcome on the stored message (also the mention sends of live sessions): the provider id, ack and
 * `sended` with `chat:ack`; a transient failure before the last attempt throws (the job is retried); a permanent one,
 * or the last attempt, marks the message undelivered.
 */
export async function recordSendOutcome(
  deps: PipelineDeps,
  payload: { tenantId: number; messageId: number },
  attempt: number,
  send: () => Promise<SendResult>,
): Promise<void> {
  try {
    const result = await send();
    const dto = await withTenant(deps.db, systemContext(payload.tenantId), async (tx) => {
      const row = await updateMessage(tx, payload.messageId, {
        messageId: result.providerMessageId,
        ack: Math.max(result.ack, 1),
        status: 'sended',
        timestamp: result.timestamp,
        isDelayed: false,
        sendError: null,
      });
      return row && loadMessageDto(tx, row, deps.links);
    });
    if (dto) publishMessage(deps.events, payload.tenantId, 'chat:ack', dto);
  } catch (error) {
    const permanent = error instanceof ProviderError && error.permanent;
    if (!permanent && attempt < SEND_MAX_ATTEMPTS) throw error;
    await markUndelivered(deps, payload.tenantId, payload.messageId, error);
  }
}

/** The web shows 'Mensagem não entregue.' and offers a resend; the job itself ends as done. */
async function markUndelivered(deps: PipelineDeps, tenantId: number, messageId: number, error: unknown) {
  const dto = await withTenant(deps.db, systemContext(tenantId), async (tx) => {
    const row = await updateMessage(tx, messageId, { isDelayed: true, sendError: sendErrorReason(error) });
    return row && loadMessageDto(tx, row, deps.links);
  });
  if (dto) publishMessage(deps.events, tenantId, 'chat:update', dto);
}
