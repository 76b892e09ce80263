import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { Button, Center, ScrollArea, Skeleton, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TicketListItem as TicketRow } from '@conversa/shared';
import { QueryError } from '../../../components/QueryError';
import { useAutoLoadMore } from '../hooks/use-auto-load-more';
import { TicketListItem } from './TicketListItem';

interface TicketListProps {
  tickets: TicketRow[];
  label: string;
  selectedId: number | null;
  acceptingId: number | null;
  loading: boolean;
  error: unknown;
  onRetry: () => void;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  onOpen: (id: number, messageId?: number) => void;
  onAccept: (id: number) => void;
  empty: ReactNode;
}

const ROW_SELECTOR = '[data-ticket-row]';

/** Arrow keys, Home and End move between rows; Enter or Space opens the focused one (see TicketListItem). */
function moveFocus(event: KeyboardEvent<HTMLUListElement>) {
  const keys = ['ArrowDown', 'ArrowUp', 'Home', 'End'];
  if (!keys.includes(event.key)) return;
  const rows = [...event.currentTarget.querySelectorAll<HTMLElement>(ROW_SELECTOR)];
  if (rows.length === 0) return;
  const current = rows.findIndex((row) => row === document.activeElement || row.contains(document.activeElement));
  const last = rows.length - 1;
  const next =
    event.key === 'Home'
      ? 0
      : event.key === 'End'
        ? last
        : event.key === 'ArrowDown'
          ? Math.min(last, current + 1)
          : Math.max(0, current - 1);
  event.preventDefault();
  for (const [index, row] of rows.entries()) row.tabIndex = index === next ? 0 : -1;
  rows[next]?.focus();
}

/** One partition of the loaded tickets, with the load-more control and the automatic load at the end. */
export function TicketList(props: TicketListProps) {
  const { t } = useTranslation();
  const { tickets, selectedId, hasMore, loadingMore, onLoadMore } = props;
  const sentinel = useRef<HTMLDivElement>(null);
  useAutoLoadMore(sentinel, hasMore && !props.loading, () => {
    if (!loadingMore) onLoadMore();
  });

  if (props.loading) {
    return (
      <Stack gap="xs" p="sm" data-testid="tickets-loading" aria-busy="true">
        {[0, 1, 2, 3, 4].map((i) => (
          <Skeleton key={i} height={56} radius="sm" />
        ))}
      </Stack>
    );
  }
  if (props.error && tickets.length === 0) {
    return (
      <Stack p="sm">
        <QueryError error={props.error} onRetry={props.onRetry} />
      </Stack>
    );
  }
  const tabbableId = tickets.some((ticket) => ticket.id === selectedId) ? selectedId : tickets[0]?.id;
  return (
    <ScrollArea style={{ flex: 1 }} type="auto" offsetScrollbars={false}>
      {tickets.length === 0 ? (
        <Center p="lg">{props.empty}</Center>
      ) : (
        <ul aria-label={props.label} onKeyDown={moveFocus} style={{ margin: 0, padding: 0 }}>
          {tickets.map((ticket) => (
            <TicketListItem
              key={ticket.id}
              ticket={ticket}
              selected={ticket.id === selectedId}
              tabbable={ticket.id === tabbableId}
              accepting={props.acceptingId === ticket.id}
              onOpen={props.onOpen}
              onAccept={props.onAccept}
            />
          ))}
        </ul>
      )}
      <div ref={sentinel} style={{ height: 1 }} aria-hidden />
      {hasMore ? (
        <Center p="sm">
          <Button variant="subtle" size="xs" data-testid="tickets-load-more" loading={loadingMore} onClick={onLoadMore}>
            {t('tickets.loadMore')}
          </Button>
        </Center>
      ) : tickets.length > 0 ? (
        <Text size="xs" c="dimmed" ta="center" p="sm">
          {t('tickets.endOfList')}
        </Text>
      ) : null}
    </ScrollArea>
  );
}
