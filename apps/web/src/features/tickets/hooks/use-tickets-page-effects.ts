/** Page-level effects of the ticket screen: the unread count in the document title and the new-ticket announcement. */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { TicketListItem } from '@conversa/shared';

/** `(n) Atendimento · Conversa` while n tickets have unread messages. */
export function useUnreadDocumentTitle(unread: number, title: string): void {
  useEffect(() => {
    document.title = unread > 0 ? `(${unread}) ${title} · Conversa` : `${title} · Conversa`;
  }, [unread, title]);
}

/**
 * Announces tickets that arrive in the loaded list by themselves (realtime), not those a new filter, a search or a
 * further page brings. Returns the ref of the polite live region.
 */
export function useNewTicketAnnouncer(rows: TicketListItem[], listKey: string, pages: number) {
  const { t } = useTranslation();
  const region = useRef<HTMLDivElement>(null);
  const previous = useRef<{ ids: Set<number>; listKey: string; pages: number } | null>(null);
  useEffect(() => {
    const before = previous.current;
    previous.current = { ids: new Set(rows.map((row) => row.id)), listKey, pages };
    if (!before || before.listKey !== listKey || before.pages !== pages || pages === 0) return;
    const fresh = rows.filter((row) => !before.ids.has(row.id));
    if (fresh.length === 0 || !region.current) return;
    region.current.textContent =
      fresh.length === 1
        ? t('tickets.announce.one', { name: fresh[0]?.name ?? '' })
        : t('tickets.announce.many', { count: fresh.length });
  }, [rows, listKey, pages, t]);
  return region;
}
