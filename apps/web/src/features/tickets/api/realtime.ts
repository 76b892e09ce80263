/**
 * The tickets feature's socket handlers (lib/realtime-registry.ts): `{T}:ticketList` and `{T}:ticket` into the ticket
 * lists, tab totals, details and chat histories, with the new-activity alerts. The app registers
 * `ticketsRealtimeHandlers` for the whole session (src/app/realtime-handlers.ts), so badges, totals and alerts stay
 * live whatever screen is mounted; lib/realtime-sync.ts only dispatches and catches up on reconnection.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { ServerToClientEvents, TicketDto, TicketListEvent } from '@conversa/shared';
import { i18next } from '../../../lib/i18n';
import { queryKeys } from '../../../lib/query-keys';
import type { RealtimeHandler } from '../../../lib/realtime-registry';
import { replaceMessage, upsertMessage, type MessagesData } from '../hooks/messages-cache';
import { alertTicketActivity } from '../hooks/ticket-alerts';
import { shiftTicketCounts, ticketCountsRefresher } from '../hooks/ticket-counts';
import {
  applyCachedMessage,
  findListedTicket,
  isTicketListed,
  removeCachedTicket,
  toListItem,
  upsertCachedTicket,
} from '../hooks/ticket-list-cache';

type TicketEvent = Parameters<ServerToClientEvents[`${number}:ticket`]>[0];

/** The tab totals follow a ticket whose previous row is loaded (or that is new); otherwise they are read again. */
function ticketChanged(queryClient: QueryClient, counts: ReturnType<typeof ticketCountsRefresher>) {
  return (ticket: TicketDto, created: boolean) => {
    const before = findListedTicket(queryClient, ticket.id);
    upsertCachedTicket(queryClient, ticket);
    if (before || created) shiftTicketCounts(queryClient, before, toListItem(ticket));
    else counts.touch();
  };
}

/**
 * `{T}:ticketList` and `{T}:ticket` (client-contract §19) patch the loaded ticket lists and details in place: no list
 * is fetched again for a message or a ticket change (the reference client did; STYLE.md says not to). Inbound messages
 * on listed tickets and new pending tickets also beep and, while the page is hidden, notify.
 */
export const ticketsRealtime: RealtimeHandler = (socket, queryClient, T) => {
  const counts = ticketCountsRefresher(queryClient);
  const changed = ticketChanged(queryClient, counts);
  const onTicketList = (event: TicketListEvent) => {
    switch (event.type) {
      case 'ticket:create':
      case 'ticket:update':
        changed(event.payload, event.type === 'ticket:create');
        return;
      case 'ticket:delete': {
        const before = findListedTicket(queryClient, event.payload.id);
        removeCachedTicket(queryClient, event.payload.id);
        if (before) shiftTicketCounts(queryClient, before, null);
        else counts.touch();
        return;
      }
      case 'notification:new': {
        // The payload is a notification's partial ticket: a listed ticket keeps its row in every list (a list that
        // has not loaded the row's page yet must not get it at the top either).
        if (isTicketListed(queryClient, event.payload.id)) return;
        upsertCachedTicket(queryClient, event.payload, { onlyIfAbsent: true });
        counts.touch();
        if (isTicketListed(queryClient, event.payload.id)) {
          alertTicketActivity({
            ticketId: event.payload.id,
            title: i18next.t('tickets.alerts.newTicket'),
            body: event.payload.contact.name || event.payload.name,
          });
        }
        return;
      }
      case 'chat:create': {
        const message = event.payload;
        const row = applyCachedMessage(queryClient, message);
        if (row && !message.fromMe) {
          alertTicketActivity({
            ticketId: row.id,
            title: i18next.t('tickets.alerts.newMessage', { name: row.name }),
            body: message.mediaName || message.body,
          });
        }
        return;
      }
      default:
        // chat:update / chat:ack / chat:delete change messages, not the list rows.
        return;
    }
  };
  const onTicket = (event: TicketEvent) => {
    if (event.action === 'update') changed(event.ticket, false);
  };
  socket.on(`${T}:ticketList`, onTicketList);
  socket.on(`${T}:ticket`, onTicket);
  return () => {
    counts.stop();
    socket.off(`${T}:ticketList`, onTicketList);
    socket.off(`${T}:ticket`, onTicket);
  };
};

/**
 * `{T}:ticketList` chat events into the cached history of their ticket (only when that history is loaded):
 * chat:create appends (deduplicated by id and idFront), chat:update/ack/delete replace the message in place. A
 * ticket:update refreshes the cached ticket detail the chat header shows.
 */
export const ticketChatRealtime: RealtimeHandler = (socket, queryClient, T) => {
  const onTicketList = (event: TicketListEvent) => {
    if (event.type === 'ticket:update') {
      const ticket = event.payload;
      queryClient.setQueryData<TicketDto>(queryKeys.ticket(ticket.id), (cached) => (cached ? ticket : cached));
      return;
    }
    if (
      event.type !== 'chat:create' &&
      event.type !== 'chat:update' &&
      event.type !== 'chat:ack' &&
      event.type !== 'chat:delete'
    ) {
      return;
    }
    const message = event.payload;
    const ticketId = message.ticket?.id ?? message.ticketId;
    queryClient.setQueryData<MessagesData>(queryKeys.messages(ticketId), (data) => {
      if (!data) return data;
      return event.type === 'chat:create' ? upsertMessage(data, message) : replaceMessage(data, message);
    });
  };
  socket.on(`${T}:ticketList`, onTicketList);
  return () => socket.off(`${T}:ticketList`, onTicketList);
};

/**
 * What the app registers for the whole session, in this order (the list rows are patched before the chat history,
 * as when both lived in realtime-sync.ts).
 */
export const ticketsRealtimeHandlers: readonly RealtimeHandler[] = [ticketsRealtime, ticketChatRealtime];
