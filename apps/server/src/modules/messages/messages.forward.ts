/**
 * POST /forward-messages/ (product-spec §5 "Forwarding": at most 10 messages, exactly one contact). Each source
 * message must be visible to the caller; the copies go to the contact's open/pending ticket on the source channel,
 * or to a new open ticket assigned to the caller, as new pending messages with their send jobs; an active ticket the
 * caller may not see refuses the forward (ERR_NO_PERMISSION). Media is not copied: the copy points at the same stored
 * key (stored media is never rewritten). The copies keep the chat's order (oldest first), not the order of `messages`.
 */
import { eq } from 'drizzle-orm';
import type { MessageEventDto, TicketDto } from '@conversa/shared';
import type { Tx } from '../../platform/db/client.js';
import { withTenant } from '../../platform/db/tenancy.js';
import type { AuthedContext } from '../../platform/http/auth.js';
import { fail } from '../../platform/http/errors.js';
import { channels } from '../channels/channels.tables.js';
import { type ContactRow } from '../contacts/index.js';
import { contacts } from '../contacts/contacts.tables.js';
import { findOrCreateActiveTicket, findVisibleTicket, loadTicketDtos, type TicketRow } from '../tickets/index.js';
import { loadMessageEventDtos } from './messages.dto.js';
import { assertWindowAllows } from './messages.window.js';
import { publishMessage, type PipelineDeps } from './messages.pipeline.js';
import { findMessage, type MessageRow } from './messages.repository.js';
import { queueOutboundMessage, type StoredUploadMedia } from './messages.send.js';

/** Internal notes and system notices stay where they are (the web hides forward for them too). */
const NOT_FORWARDABLE = new Set(['notes', 'transcription', 'transfer']);

async function loadSources(tx: Tx, ctx: AuthedContext, ids: number[]): Promise<MessageRow[]> {
  const sources: MessageRow[] = [];
  for (const id of new Set(ids)) {
    const message = await findMessage(tx, id);
    if (!message || !(await findVisibleTicket(tx, ctx, message.ticketId))) throw fail('ERR_NOT_FOUND');
    const mediaMissing = message.mediaType !== 'chat' && message.mediaStatus !== 'ready';
    if (message.isDeleted || NOT_FORWARDABLE.has(message.mediaType) || mediaMissing || !message.channelId) {
      throw fail('ERR_VALIDATION', 'messages');
    }
    sources.push(message);
  }
  // The copies go in the chat's order (oldest first), whatever order the caller picked them in: a forward of a
  // question and its answer must not arrive answer first. A message's id is its place in the history.
  return sources.sort((a, b) => a.id - b.id);
}

function copiedMedia(source: MessageRow): StoredUploadMedia | null {
  if (!source.mediaKey) return null;
  return {
    key: source.mediaKey,
    name: source.mediaName ?? 'file',
    mime: source.mediaMime ?? 'application/octet-stream',
    size: source.mediaSize ?? 0,
    mediaType: source.mediaType,
    isSticker: source.isSticker,
  };
}

async function targetTicket(tx: Tx, ctx: AuthedContext, contact: ContactRow, channelId: number) {
  const [channel] = await tx.select().from(channels).where(eq(channels.id, channelId)).limit(1);
  if (!channel) throw fail('ERR_NO_WAPP_FOUND');
  const target = await findOrCreateActiveTicket(tx, ctx.tenantId, {
    contactId: contact.id,
    channelId,
    channelType: channel.type,
    isGroup: contact.isGroup,
    status: 'open',
    userId: ctx.userId,
    queueId: null,
    actorUserId: ctx.userId,
  });
  // The contact's active ticket may be one the caller may not see (another queue): never write into it. The throw
  // rolls the whole forward back, so nothing is stored and no send is queued.
  if (!target.created && !(await findVisibleTicket(tx, ctx, target.ticket.id))) throw fail('ERR_NO_PERMISSION');
  // A forwarded copy is a free-form message: outside a waba conversation's window it is refused like a text.
  await assertWindowAllows(tx, ctx, target.ticket);
  return target;
}

export function createForwardService(deps: PipelineDeps) {
  async function store(ctx: AuthedContext, messageIds: number[], contactId: number) {
    return withTenant(deps.db, ctx, async (tx) => {
      const [contact] = await tx.select().from(contacts).where(eq(contacts.id, contactId)).limit(1);
      if (!contact) throw fail('ERR_NO_CONTACT_FOUND');
      const sources = await loadSources(tx, ctx, messageIds);
      const targets = new Map<number, { ticket: TicketRow; created: boolean }>();
      const rows: MessageRow[] = [];
      for (const [index, source] of sources.entries()) {
        const channelId = source.channelId!;
        if (!targets.has(channelId)) targets.set(channelId, await targetTicket(tx, ctx, contact, channelId));
        const { ticket } = targets.get(channelId)!;
        const values = { body: source.edition ?? source.body, quotedMsgId: null, idFront: null, sendType: null };
        // One transaction gives the jobs one creation time: the priority keeps the copies in the order chosen.
        const priority = sources.length - index;
        const copy = { ...values, media: copiedMedia(source) };
        const { row } = await queueOutboundMessage(tx, deps.jobs, ctx, ticket, copy, { priority });
        rows.push(row);
      }
      const made = new Set([...targets.values()].filter((target) => target.created).map((target) => target.ticket.id));
      const dtos = await loadTicketDtos(
        tx,
        [...targets.values()].map((target) => target.ticket.id),
      );
      const tickets: { dto: TicketDto; created: boolean }[] = dtos.map((dto) => ({ dto, created: made.has(dto.id) }));
      return { messages: await loadMessageEventDtos(tx, rows, deps.links, dtos), tickets };
    });
  }

  return {
    async forwardMessages(ctx: AuthedContext, messageIds: number[], contactId: number): Promise<MessageEventDto[]> {
      const result = await store(ctx, messageIds, contactId);
      for (const message of result.messages) publishMessage(deps.events, ctx.tenantId, 'chat:create', message);
      for (const { dto, created } of result.tickets) {
        deps.events.publish('tickets.changed', {
          tenantId: ctx.tenantId,
          type: created ? 'ticket:create' : 'ticket:update',
          ticket: dto,
        });
      }
      return result.messages;
    },
  };
}

export type ForwardService = ReturnType<typeof createForwardService>;
