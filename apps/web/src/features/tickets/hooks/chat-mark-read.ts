/**
 * Marks the open ticket read (PUT /tickets/{id} { unreadMessages: 0 }) when it has unread messages and when a new
 * customer message arrives while the page is visible; debounced, so a burst of messages makes one call.
 */
import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { TicketDto } from '@conversa/shared';
import { queryKeys } from '../../../lib/query-keys';
import { markTicketRead } from './chat-ticket';

export const MARK_READ_DEBOUNCE_MS = 1000;

/** `lastIncomingId`: the newest customer message in the history; undefined while the history loads. */
export function useMarkRead(
  ticketId: number,
  unreadMessages: number | undefined,
  lastIncomingId: number | null | undefined,
) {
  const queryClient = useQueryClient();
  const pending = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const firstIncoming = useRef<number | null | undefined>(undefined);

  useEffect(() => {
    const flush = () => {
      if (!pending.current || document.visibilityState !== 'visible') return;
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        pending.current = false;
        queryClient.setQueryData<TicketDto>(queryKeys.ticket(ticketId), (ticket) =>
          ticket && ticket.unreadMessages !== 0 ? { ...ticket, unreadMessages: 0 } : ticket,
        );
        markTicketRead(ticketId).catch(() => {
          // Not the user's own action: a failure only leaves the counter for the next message.
        });
      }, MARK_READ_DEBOUNCE_MS);
    };
    if (unreadMessages !== undefined && unreadMessages > 0) pending.current = true;
    if (lastIncomingId === undefined) {
      // History not loaded yet: nothing to compare with.
    } else if (firstIncoming.current === undefined) firstIncoming.current = lastIncomingId;
    else if (lastIncomingId !== null && lastIncomingId !== firstIncoming.current) {
      firstIncoming.current = lastIncomingId;
      pending.current = true;
    }
    flush();
    document.addEventListener('visibilitychange', flush);
    return () => document.removeEventListener('visibilitychange', flush);
  }, [queryClient, ticketId, unreadMessages, lastIncomingId]);

  useEffect(() => () => clearTimeout(timer.current), []);
}
