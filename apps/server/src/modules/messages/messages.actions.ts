/**
 * Agent actions on a stored message that the provider must carry out first: delete, edit, react. The provider is
 * called outside any transaction (never hold a database transaction across the network); a refusal changes nothing.
 */
import { eq } from 'drizzle-orm';
import { isAdminProfile, type ErrorCode, type MessageEventDto } from '@conversa/shared';
import type { Tx } from '../../platform/db/client.js';
import { withTenant } from '../../platform/db/tenancy.js';
import type { AuthedContext } from '../../platform/http/auth.js';
import { fail } from '../../platform/http/errors.js';
import {
  loadChannelCredentials,
  ProviderError,
  SessionNotRunningError,
  type ChannelAdapter,
  type ChannelCredentials,
} from '../channels/index.js';
import { contacts } from '../contacts/contacts.tables.js';
import { findVisibleTicket } from '../tickets/index.js';
import { loadMessageDto } from './messages.dto.js';
import { publishMessage, type MessageChange, type PipelineDeps } from './messages.pipeline.js';
import {
  findInTicketByProviderId,
  findMessage,
  updateMessage,
  type MessagePatch,
  type MessageRow,
} from './messages.repository.js';
import { recipientFor } from './messages.send-job.js';

/** A message the caller may act on, with what the provider needs to address it. */
interface Target {
  message: MessageRow;
  channel: ChannelCredentials | null;
  to: string | null;
}

/** By our id, or (clients echo either) by the provider id inside the given ticket. */
export async function resolveMessage(tx: Tx, ref: number | string, ticketId?: number): Promise<MessageRow | undefined> {
  if (typeof ref === 'number') {
    const byId = await findMessage(tx, ref);
    if (byId && (ticketId === undefined || byId.ticketId === ticketId)) return byId;
  }
  return ticketId === undefined ? undefined : findInTicketByProviderId(tx, ticketId, String(ref));
}

async function loadTarget(tx: Tx, ctx: AuthedContext, ref: number | string, ticketId?: number): Promise<Target> {
  const message = await resolveMessage(tx, ref, ticketId);
  // A message of a ticket the caller may not see does not exist for them (same answer as another tenant's).
  if (!message || !(await findVisibleTicket(tx, ctx, message.ticketId))) throw fail('ERR_NOT_FOUND');
  const channel = message.channelId ? await loadChannelCredentials(tx, message.channelId) : null;
  const [contact] = await tx.select().from(contacts).where(eq(contacts.id, message.contactId)).limit(1);
  return { message, channel, to: channel && contact ? recipientFor(channel.type, contact) : null };
}

/**
 * An agent's sent words are theirs: another agent's edit would reach the customer under their name. Only the author
 * or an admin changes a message we sent; one without an author (written on the phone, a system text) only an admin.
 */
function assertMayChange(ctx: AuthedContext, message: MessageRow): void {
  if (!message.fromMe || isAdminProfile(ctx.profile)) return;
  if (message.userId !== null && message.userId === ctx.userId) return;
  throw fail('ERR_NO_PERMISSION');
}

export function createMessageActions(deps: PipelineDeps) {
  /** Runs the provider call; any provider failure (or a channel without adapter) becomes the given catalogue code. */
  async function onProvider(
    target: Target,
    refused: ErrorCode,
    call: (a: ChannelAdapter, c: ChannelCredentials, to: string) => Promise<void>,
  ) {
    if (!target.channel || !target.to || !target.message.messageId) throw fail(refused);
    try {
      await call(deps.adapters.get(target.channel.type), target.channel, target.to);
    } catch (error) {
      // A stateful session that no node runs (or whose owner did not answer in time).
      if (error instanceof SessionNotRunningError) throw fail('ERR_WAPP_NOT_INITIALIZED');
      if (error instanceof ProviderError) throw fail(refused);
      throw error;
    }
  }

  async function save(
    ctx: AuthedContext,
    id: number,
    patch: MessagePatch,
    change: MessageChange,
  ): Promise<MessageEventDto> {
    const dto = await withTenant(deps.db, ctx, async (tx) => {
      const row = await updateMessage(tx, id, patch);
      if (!row) throw fail('ERR_NOT_FOUND');
      return loadMessageDto(tx, row, deps.links);
    });
    publishMessage(deps.events, ctx.tenantId, change, dto);
    return dto;
  }

  const target = (ctx: AuthedContext, ref: number | string, ticketId?: number) =>
    withTenant(deps.db, ctx, (tx) => loadTarget(tx, ctx, ref, ticketId));

  return {
    /** Only messages we sent, by their author or an admin; one never sent is just marked deleted (its job skips it). */
    async deleteMessage(ctx: AuthedContext, id: number): Promise<MessageEventDto> {
      const found = await target(ctx, id);
      if (!found.message.fromMe) throw fail('ERR_DELETE_WAPP_MSG');
      assertMayChange(ctx, found.message);
      if (found.message.messageId) {
        await onProvider(found, 'ERR_DELETE_WAPP_MSG', (adapter, channel, to) =>
          adapter.delete(channel, to, found.message.messageId!),
        );
      }
      return save(ctx, id, { isDeleted: true, deletedAt: new Date() }, 'chat:delete');
    },

    /** Only sent text messages we sent can be edited, by their author or an admin. */
    async editMessage(ctx: AuthedContext, ref: number | string, newBody: string, ticketId?: number) {
      const found = await target(ctx, ref, ticketId);
      const m = found.message;
      assertMayChange(ctx, m);
      if (!m.fromMe || m.mediaType !== 'chat' || m.isDeleted || !m.messageId) throw fail('ERR_MESSAGE_NOT_EDITABLE');
      await onProvider(found, 'ERR_MESSAGE_NOT_EDITABLE', (adapter, channel, to) =>
        adapter.edit(channel, to, m.messageId!, newBody),
      );
      return save(ctx, m.id, { edition: newBody, editedAt: new Date() }, 'chat:update');
    },

    /** An empty reaction removes ours. */
    async reactToMessage(ctx: AuthedContext, ref: number | string, ticketId: number, reaction: string) {
      const found = await target(ctx, ref, ticketId);
      if (found.message.isDeleted) throw fail('ERR_CHANNEL_PROVIDER');
      await onProvider(found, 'ERR_CHANNEL_PROVIDER', (adapter, channel, to) =>
        adapter.react(channel, to, found.message.messageId!, reaction),
      );
      return save(ctx, found.message.id, { reactionFromMe: reaction || null }, 'chat:update');
    },
  };
}

export type MessageActions = ReturnType<typeof createMessageActions>;
