/**
 * An agent's send (POST /messages/{ticketId}): the message is stored pending and `messages.send` is enqueued in the
 * same transaction; the worker talks to the provider. A retried POST with the same idFront answers the stored message
 * and sends nothing twice (unique (tenant, ticket, idFront)). Uploaded media is in the store before the transaction
 * and is removed again when the transaction fails or the idFront was already used.
 */
import type {
  ChannelType,
  MessageEventDto,
  MessageMediaType,
  OutboundPayload,
  SendQuickMessage,
  TicketDto,
} from '@conversa/shared';
import type { Tx } from '../../platform/db/client.js';
import type { TenantContext } from '../../platform/db/tenancy.js';
import { withTenant } from '../../platform/db/tenancy.js';
import type { AuthedContext } from '../../platform/http/auth.js';
import { fail } from '../../platform/http/errors.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import { enqueueChannelJob } from '../channels/index.js';
import { findVisibleTicket, loadTicketDto, touchTicketOnOutbound, type TicketRow } from '../tickets/index.js';
import { loadMessageDto } from './messages.dto.js';
import { signedBody } from './messages.signature.js';
import { SEND_MESSAGE_JOB } from './messages.jobs.js';
import { publishSent, type PipelineDeps } from './messages.pipeline.js';
import { findByIdFront, findMessage, insertMessageOnce, type MessageRow } from './messages.repository.js';
import { quickMessageOutbound } from './messages.quick-send.js';
import { assertWindowAllows } from './messages.window.js';
import { bodyRenderedFor } from './messages.placeholders.js';
import type { OutboundValues } from './messages.send.types.js';

export type { OutboundValues, StoredUploadMedia } from './messages.send.types.js';

/**
 * The values of an official channel's payload send (a template, buttons, a list, a file by URL): no upload, no quote
 * unless given, `body` the readable text the chat and the ticket list show.
 */
export function payloadSend(
  body: string,
  mediaType: MessageMediaType,
  payload: OutboundPayload,
  options: { idFront?: string | null; quotedMsgId?: number | null; sendType?: string | null } = {},
): OutboundValues {
  return {
    body,
    quotedMsgId: options.quotedMsgId ?? null,
    idFront: options.idFront ?? null,
    sendType: options.sendType ?? null,
    media: null,
    mediaType,
    payload,
  };
}

/** What a send route asks of the ticket beyond "the caller may write on it". */
export interface SendRequirements {
  /** The ticket's channel must be of this type (the `/wabameta*` routes): else 400 ERR_CHANNEL_TYPE_UNSUPPORTED. */
  channelType?: ChannelType;
  /** The ticket's channel must be one of these types (`/hub-message`: every hub type); same answer. */
  channelTypes?: readonly ChannelType[];
  /**
   * A template is allowed outside the customer-service window (Meta's rule); every other waba send is checked.
   * Set by the template route only.
   */
  outsideWindow?: boolean;
  /**
   * Runs in the send's transaction once the ticket is checked, before anything is stored: fills what depends on
   * the ticket's channel (the template route reads its cached template here) or refuses.
   */
  prepare?: (tx: Tx, ticket: TicketRow) => Promise<Partial<OutboundValues>>;
}

/** Sends no person wrote that do not answer the customer (tickets.inbound.ts touchTicketOnOutbound). */
const AUTOMATED_SEND_TYPES = new Set(['chatbot', 'absence']);

/**
 * Stores a pending outbound message on a ticket, touches the ticket and enqueues its send, all in the caller's
 * transaction. Returns the existing message (created false) when the idFront was already used on this ticket.
 */
export async function queueOutboundMessage(
  tx: Tx,
  jobs: JobQueue,
  ctx: TenantContext,
  ticket: TicketRow,
  values: OutboundValues,
  options: { announce?: boolean; priority?: number } = {},
): Promise<{ row: MessageRow; created: boolean }> {
  if (values.idFront) {
    const existing = await findByIdFront(tx, ticket.id, values.idFront);
    if (existing) return { row: existing, created: false };
  }
  const media = values.media;
  const row = await insertMessageOnce(tx, {
    tenantId: ctx.tenantId,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    channelId: ticket.channelId,
    userId: ctx.userId,
    idFront: values.idFront,
    fromMe: true,
    read: true,
    body: values.body,
    mediaType: values.mediaType ?? media?.mediaType ?? 'chat',
    mediaKey: media?.key ?? null,
    mediaName: media?.name ?? null,
    mediaMime: media?.mime ?? null,
    mediaSize: media?.size ?? null,
    mediaStatus: media ? 'ready' : 'none',
    isSticker: media?.isSticker ?? false,
    ack: 0,
    status: 'pending',
    sendType: values.sendType,
    quotedMsgId: values.quotedMsgId,
    outboundPayload: values.payload ?? null,
  });
  if (!row) {
    // A concurrent POST with the same idFront won the unique index.
    const winner = await findByIdFront(tx, ticket.id, values.idFront ?? '');
    if (!winner) throw fail('ERR_CREATING_MESSAGE');
    return { row: winner, created: false };
  }
  const automated = AUTOMATED_SEND_TYPES.has(values.sendType ?? '');
  await touchTicketOnOutbound(tx, ticket.id, values.body || media?.name || row.mediaType, new Date(), automated);
  const announce = options.announce ? { announce: true } : {};
  const order = options.priority ? { priority: options.priority } : {};
  // A stateful channel's sends go to its session's queue, worked only where the session runs.
  const payload = { tenantId: ctx.tenantId, messageId: row.id, ...announce };
  await enqueueChannelJob(tx, jobs, ctx.tenantId, ticket.channelId, SEND_MESSAGE_JOB, payload, order);
  return { row, created: true };
}

/** A reply must quote a message of the same conversation (contact and channel), never one of another ticket's contact. */
async function checkQuoted(tx: Tx, ticket: TicketRow, quotedMsgId: number | null): Promise<number | null> {
  if (quotedMsgId === null) return null;
  const quoted = await findMessage(tx, quotedMsgId);
  if (!quoted || quoted.contactId !== ticket.contactId || quoted.channelId !== ticket.channelId) {
    throw fail('ERR_VALIDATION', 'quotedMsg');
  }
  return quoted.id;
}

/** The ticket the caller may write on, of the required channel type. */
async function writableTicket(tx: Tx, ctx: AuthedContext, ticketId: number, needs: SendRequirements) {
  const ticket = await findVisibleTicket(tx, ctx, ticketId);
  if (!ticket) throw fail('ERR_NO_TICKET_FOUND');
  if (needs.channelType && ticket.channel !== needs.channelType) throw fail('ERR_CHANNEL_TYPE_UNSUPPORTED');
  if (needs.channelTypes && !(needs.channelTypes as readonly string[]).includes(ticket.channel)) {
    throw fail('ERR_CHANNEL_TYPE_UNSUPPORTED');
  }
  if (ticket.status === 'closed') throw fail('ERR_TICKET_CLOSED');
  return ticket;
}

export function createSendService(deps: PipelineDeps) {
  async function store(ctx: AuthedContext, ticketId: number, input: OutboundValues, needs: SendRequirements) {
    return withTenant(deps.db, ctx, async (tx) => {
      const ticket = await writableTicket(tx, ctx, ticketId, needs);
      // A retried POST answers its stored message even when the window closed meanwhile.
      const retried = input.idFront ? await findByIdFront(tx, ticket.id, input.idFront) : undefined;
      if (!retried && !needs.outsideWindow) await assertWindowAllows(tx, ctx, ticket);
      const values = needs.prepare && !retried ? { ...input, ...(await needs.prepare(tx, ticket)) } : input;
      const quotedMsgId = await checkQuoted(tx, ticket, values.quotedMsgId);
      const body = values.sign && !values.media ? await signedBody(tx, ctx, values.body) : values.body;
      const { row, created } = await queueOutboundMessage(tx, deps.jobs, ctx, ticket, { ...values, body, quotedMsgId });
      // A new message changes its ticket (last message, answered): the event's ticket is that DTO, read once.
      const dto = created ? await loadTicketDto(tx, ticket.id) : null;
      return { message: await loadMessageDto(tx, row, deps.links, dto), created, ticket: dto };
    });
  }

  return {
    /** Checked before an upload is read, so a file for a ticket the caller cannot write to is never stored. */
    async assertWritable(ctx: AuthedContext, ticketId: number, needs: SendRequirements = {}): Promise<void> {
      await withTenant(deps.db, ctx, async (tx) => {
        const ticket = await writableTicket(tx, ctx, ticketId, needs);
        // Refused before the upload is read: a file for a send that cannot go out is never stored.
        if (!needs.outsideWindow) await assertWindowAllows(tx, ctx, ticket);
      });
    },

    /** A stored quick message (its file without a new upload), checked against the ticket like any send. */
    async sendQuickMessage(ctx: AuthedContext, ticketId: number, input: SendQuickMessage): Promise<MessageEventDto> {
      await this.assertWritable(ctx, ticketId);
      const values = await quickMessageOutbound(deps, ctx, input);
      // Its {{name}}, {{firstName}}, {{protocol}}, {{greeting}} are the ticket's (messages.placeholders.ts).
      return this.sendMessage(ctx, ticketId, values, { prepare: bodyRenderedFor(values.body) });
    },

    async sendMessage(
      ctx: AuthedContext,
      ticketId: number,
      values: OutboundValues,
      needs: SendRequirements = {},
    ): Promise<MessageEventDto> {
      let result: { message: MessageEventDto; created: boolean; ticket: TicketDto | null };
      try {
        result = await store(ctx, ticketId, values, needs);
      } catch (error) {
        if (values.media) await deps.store.delete(values.media.key);
        throw error;
      }
      if (!result.created) {
        if (values.media) await deps.store.delete(values.media.key);
        return result.message;
      }
      publishSent(deps.events, ctx.tenantId, result.message, result.ticket);
      return result.message;
    },
  };
}

export type SendService = ReturnType<typeof createSendService>;
