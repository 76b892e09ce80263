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
 * further page brings. `listKey` names everything that decides the rows (the server filter and the filters applied
 * here); `settled` is false while the previous filter's rows stand in for the new one (keepPreviousData): those rows
 * are no baseline, so the new filter's first answer sets one instead of being announced. Returns the ref of the
 * polite live region.
 */
export function useNewTicketAnnouncer(rows: TicketListItem[], listKey: string, pages: number, settled: boolean) {
  const { t } = useTranslation();
  const region = useRef<HTMLDivElement>(null);
  const previous = useRef<{ ids: Set<number>; listKey: string | null; pages: number } | null>(null);
  useEffect(() => {
    const before = previous.current;
    const key = settled ? listKey : null;
    previous.current = { ids: new Set(rows.map((row) => row.id)), listKey: key, pages };
    if (!before || key === null || before.listKey !== key || before.pages !== pages || pages === 0) return;
    const fresh = rows.filter((row) => !before.ids.has(row.id));
    if (fresh.length === 0 || !region.current) return;
    region.current.textContent =
      fresh.length === 1
        ? t('tickets.announce.one', { name: fresh[0]?.name ?? '' })
        : t('tickets.announce.many', { count: fresh.length });
  }, [rows, listKey, pages, settled, t]);
  return region;
}
