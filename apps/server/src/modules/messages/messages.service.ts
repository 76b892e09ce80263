/** Reading messages: a ticket's conversation, the text search, and the media behind a signed link. */
import type { Readable } from 'node:stream';
import { MESSAGES_PAGE_SIZE, type MessageListResponse } from '@conversa/shared';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import type { AuthedContext } from '../../platform/http/auth.js';
import { fail } from '../../platform/http/errors.js';
import { assertMayReadConversation, findVisibleTicket } from '../tickets/index.js';
import { loadMessageDtos } from './messages.dto.js';
import type { PipelineDeps } from './messages.pipeline.js';
import { findMessage, listHistoryPage, listWaitingToSend } from './messages.repository.js';
import { searchMessages, type SearchMessageResponse } from './messages.search.js';

export interface OpenedMedia {
  stream: Readable;
  size: number;
  mime: string;
  name: string;
}

export function createMessagesService(deps: PipelineDeps) {
  return {
    /**
     * The conversation of the ticket's contact on its channel, across its tickets: newest page first, each page
     * oldest to newest. `messagesOffLine` = the ticket's messages still waiting for the provider.
     */
    async listMessages(ctx: AuthedContext, ticketId: number, pageNumber: number): Promise<MessageListResponse> {
      return withTenant(deps.db, ctx, async (tx) => {
        const ticket = await findVisibleTicket(tx, ctx, ticketId);
        if (!ticket) throw fail('ERR_NO_TICKET_FOUND');
        // A pending ticket not accepted yet, with `spyticket` off: its conversation is not the caller's to read.
        await assertMayReadConversation(tx, ctx, ticket);
        const scope = { contactId: ticket.contactId, channelId: ticket.channelId };
        const page = await listHistoryPage(tx, scope, MESSAGES_PAGE_SIZE + 1, (pageNumber - 1) * MESSAGES_PAGE_SIZE);
        const rows = page.rows.slice(0, MESSAGES_PAGE_SIZE).reverse();
        const offline = pageNumber === 1 ? await listWaitingToSend(tx, ticket.id) : [];
        return {
          messages: await loadMessageDtos(tx, rows, deps.links, page.known),
          messagesOffLine: await loadMessageDtos(tx, offline, deps.links, page.known),
          hasMore: page.rows.length > MESSAGES_PAGE_SIZE,
        };
      });
    },

    /** Text search over the messages the caller may reach (messages.search.ts). */
    async searchMessages(ctx: AuthedContext, searchTerm: string, pageNumber: number): Promise<SearchMessageResponse> {
      const viewer = { tenantId: ctx.tenantId, userId: ctx.userId, profile: ctx.profile };
      return withTenant(deps.db, ctx, (tx) => searchMessages(tx, viewer, searchTerm, pageNumber));
    },

    /** The stored media of a signed link: forged links are unknown (404), expired ones ERR_MEDIA_EXPIRED. */
    async openMedia(token: string): Promise<OpenedMedia> {
      const check = deps.links.verify(token);
      if (!check.ok) throw fail(check.reason === 'expired' ? 'ERR_MEDIA_EXPIRED' : 'ERR_NOT_FOUND');
      const { tenantId, messageId } = check.claims;
      // The signed token names the tenant, so the lookup runs inside that tenant (RLS) without a system path.
      const row = await withTenant(deps.db, systemContext(tenantId), (tx) => findMessage(tx, messageId));
      if (!row || row.mediaStatus !== 'ready' || !row.mediaKey) throw fail('ERR_NOT_FOUND');
      const stored = await deps.store.get(row.mediaKey);
      if (!stored) throw fail('ERR_NOT_FOUND');
      return {
        stream: stored.stream,
        size: stored.size,
        mime: row.mediaMime ?? 'application/octet-stream',
        name: row.mediaName ?? 'file',
      };
    },
  };
}

export type MessagesService = ReturnType<typeof createMessagesService>;
