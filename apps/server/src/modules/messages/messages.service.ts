/** Reading messages: a ticket's conversation, the text search, and the media behind a signed link. */
import type { Readable } from 'node:stream';
import { inArray } from 'drizzle-orm';
import { MESSAGES_PAGE_SIZE, type MessageListResponse } from '@conversa/shared';
import type { z } from 'zod';
import type { searchMessageResponseSchema } from '@conversa/shared';
import { foldSearch } from '../../platform/db/search.js';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import type { AuthedContext } from '../../platform/http/auth.js';
import { fail } from '../../platform/http/errors.js';
import { contacts } from '../contacts/index.js';
import { assertMayReadConversation, findVisibleTicket, type TicketRow } from '../tickets/index.js';
import { loadMessageDtos } from './messages.dto.js';
import type { PipelineDeps } from './messages.pipeline.js';
import { findMessage, listHistoryPage, listWaitingToSend, searchCandidates } from './messages.repository.js';

export const SEARCH_PAGE_SIZE = 20;
/** Newest matches looked at per search; the visibility filter runs on these. */
export const SEARCH_CANDIDATES = 1000;

type SearchResponse = z.infer<typeof searchMessageResponseSchema>;

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

    /**
     * Full-text search over the tenant's messages (RLS scopes the tenant), accent-folded like the stored vector.
     * Visibility is the tickets module's policy: the newest candidates are filtered through findVisibleTicket.
     */
    async searchMessages(ctx: AuthedContext, searchTerm: string, pageNumber: number): Promise<SearchResponse> {
      const term = foldSearch(searchTerm);
      if (!term) return { tickets: [], hasMore: false };
      return withTenant(deps.db, ctx, async (tx) => {
        const candidates = await searchCandidates(tx, term, SEARCH_CANDIDATES);
        const wanted = pageNumber * SEARCH_PAGE_SIZE + 1;
        const visible = new Map<number, TicketRow | null>();
        const hits: { message: (typeof candidates)[number]; ticket: TicketRow }[] = [];
        for (const message of candidates) {
          if (hits.length >= wanted) break;
          if (!visible.has(message.ticketId)) {
            visible.set(message.ticketId, await findVisibleTicket(tx, ctx, message.ticketId));
          }
          const ticket = visible.get(message.ticketId);
          if (ticket) hits.push({ message, ticket });
        }
        const page = hits.slice((pageNumber - 1) * SEARCH_PAGE_SIZE, pageNumber * SEARCH_PAGE_SIZE);
        const contactIds = [...new Set(page.map((hit) => hit.ticket.contactId))];
        const names = contactIds.length
          ? new Map(
              (
                await tx
                  .select({ id: contacts.id, name: contacts.name })
                  .from(contacts)
                  .where(inArray(contacts.id, contactIds))
              ).map((c) => [c.id, c.name]),
            )
          : new Map<number, string>();
        return {
          tickets: page.map(({ message, ticket }) => ({
            id: ticket.id,
            status: ticket.status,
            channel: ticket.channel,
            isGroup: ticket.isGroup,
            whatsappId: ticket.channelId,
            lastMessage: ticket.lastMessage,
            name: names.get(ticket.contactId) ?? '',
            message: {
              id: message.id,
              body: message.edition ?? message.body,
              createdAt: message.createdAt.toISOString(),
            },
          })),
          hasMore: hits.length > pageNumber * SEARCH_PAGE_SIZE,
        };
      });
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
