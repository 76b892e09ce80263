import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { ActionIcon, Box, Center, EmptyState, Group, Loader, Paper, Stack } from '@mantine/core';
import { useDebouncedValue, useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconArrowLeft, IconMessages } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { useStoredSession } from '../../../lib/storage';
import { useShowChatBot } from '../api/show-chatbot';
import { useAcceptTicket, useTicketsList } from '../api/tickets';
import { activeFilterCount, effectiveFilter, toListFilter } from '../hooks/attendance-filter';
import { flattenPages } from '../hooks/ticket-list-cache';
import { applyLocalFilter, partitionTickets, unreadTotal } from '../hooks/ticket-partitions';
import { useTicketsFilter } from '../hooks/use-tickets-filter';
import { SearchTermContext } from '../hooks/search-match';
import { useNewTicketAnnouncer, useUnreadDocumentTitle } from '../hooks/use-tickets-page-effects';
import { NewTicketModal } from './NewTicketModal';
import { TicketFilterModal } from './TicketFilterModal';
import { TicketListHeader } from './TicketListHeader';
import { TicketListTabs } from './TicketListTabs';

const ChatPanel = lazy(() => import('./chat/ChatPanel').then((m) => ({ default: m.ChatPanel })));

const NARROW_QUERY = '(max-width: 899.98px)';
const PAGE_HEIGHT = 'calc(100dvh - var(--app-shell-header-height, 60px) - 2 * var(--mantine-spacing-lg))';
const SEARCH_DEBOUNCE_MS = 400;

/**
 * The service screen `/atendimento` and `/atendimento/:ticketId` (route chat-ticket): the ticket list on the left,
 * the chat of the selected ticket on the right; on narrow screens one or the other, with a way back.
 */
export function TicketsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useStoredSession();
  const userId = session?.userId ?? 0;
  const canSeeAll = session?.profile === 'admin' || session?.profile === 'super';
  const params = useParams();
  const selectedId = Number(params.ticketId) > 0 ? Number(params.ticketId) : null;
  // `?message=<id>`: the message a text search found, opened scrolled to and highlighted (tickets.search.ts).
  const [searchParams] = useSearchParams();
  const focusMessageId = Number(searchParams.get('message')) > 0 ? Number(searchParams.get('message')) : null;
  const narrow = useMediaQuery(NARROW_QUERY) ?? false;

  const { filter, setFilter } = useTicketsFilter(userId);
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const applied = useMemo(() => effectiveFilter(filter, canSeeAll), [filter, canSeeAll]);
  const listFilter = useMemo(() => toListFilter(applied, debouncedSearch), [applied, debouncedSearch]);
  const list = useTicketsList(listFilter);
  const rows = useMemo(() => applyLocalFilter(flattenPages(list.data), applied), [list.data, applied]);
  const showChatBot = useShowChatBot();
  const partitions = useMemo(() => partitionTickets(rows, { showChatBot }), [rows, showChatBot]);
  const [filterOpened, filterModal] = useDisclosure(false);
  const [newOpened, newModal] = useDisclosure(false);

  useUnreadDocumentTitle(unreadTotal(partitions), t('tickets.title'));
  const liveRegion = useNewTicketAnnouncer(
    rows,
    JSON.stringify([listFilter, applied.tags, applied.kanbans]),
    list.data?.pages.length ?? 0,
    !list.isPlaceholderData,
  );

  const accept = useAcceptTicket();
  const openTicket = useCallback(
    (id: number, messageId?: number) => navigate(`/atendimento/${id}${messageId ? `?message=${messageId}` : ''}`),
    [navigate],
  );
  const acceptTicket = useCallback(
    (id: number) => accept.mutate({ id, userId }, { onSuccess: () => openTicket(id) }),
    [accept, userId, openTicket],
  );
  const { fetchNextPage, isFetchingNextPage } = list;
  const loadMore = useCallback(() => {
    if (!isFetchingNextPage) void fetchNextPage();
  }, [fetchNextPage, isFetchingNextPage]);

  const showList = !narrow || selectedId === null;
  const showChat = !narrow || selectedId !== null;

  return (
    <Group h={PAGE_HEIGHT} gap="md" wrap="nowrap" align="stretch" data-testid="tickets-page">
      {showList ? (
        <Paper
          withBorder
          component="section"
          aria-label={t('tickets.listLabel')}
          w={narrow ? '100%' : 380}
          style={{ flexShrink: 0, display: 'flex', flexDirection: 'column', minHeight: 0 }}
        >
          <Stack gap="xs" p="sm" pb={0}>
            <TicketListHeader
              search={search}
              onSearch={setSearch}
              activeFilters={activeFilterCount(applied)}
              onOpenFilter={filterModal.open}
              onNewTicket={newModal.open}
            />
          </Stack>
          <SearchTermContext.Provider value={listFilter.searchParam}>
            <TicketListTabs
              partitions={partitions}
              showChatBot={showChatBot}
              listFilter={listFilter}
              serverCounts={applied.tags.length === 0 && applied.kanbans.length === 0}
              includesClosed={applied.status.includes('closed')}
              onIncludeClosed={(include) =>
                setFilter({
                  ...filter,
                  status: include ? [...filter.status, 'closed'] : filter.status.filter((s) => s !== 'closed'),
                })
              }
              searching={listFilter.searchParam !== ''}
              selectedId={selectedId}
              acceptingId={accept.isPending ? (accept.variables?.id ?? null) : null}
              loading={list.isPending}
              error={list.error}
              onRetry={() => void list.refetch()}
              hasMore={list.hasNextPage}
              loadingMore={isFetchingNextPage}
              onLoadMore={loadMore}
              onOpen={openTicket}
              onAccept={acceptTicket}
            />
          </SearchTermContext.Provider>
          <div aria-live="polite" role="status" ref={liveRegion} style={srOnly} />
        </Paper>
      ) : null}
      {showChat ? (
        <Paper
          withBorder
          component="section"
          aria-label={t('tickets.chatLabel')}
          style={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}
        >
          {selectedId !== null ? (
            <>
              {narrow ? (
                <Box p={4}>
                  <ActionIcon
                    variant="subtle"
                    data-testid="tickets-back"
                    aria-label={t('tickets.back')}
                    onClick={() => navigate('/atendimento')}
                  >
                    <IconArrowLeft size={18} aria-hidden />
                  </ActionIcon>
                </Box>
              ) : null}
              <Suspense
                fallback={
                  <Center h="100%">
                    <Loader aria-label={t('common.loading')} />
                  </Center>
                }
              >
                <ChatPanel key={selectedId} ticketId={selectedId} focusMessageId={focusMessageId} />
              </Suspense>
            </>
          ) : (
            <Center h="100%" data-testid="tickets-empty-chat">
              <EmptyState
                icon={<IconMessages size={28} aria-hidden />}
                title={t('tickets.noSelection')}
                description={t('tickets.noSelectionHint')}
              />
            </Center>
          )}
        </Paper>
      ) : null}
      <TicketFilterModal
        opened={filterOpened}
        filter={applied}
        canSeeAll={canSeeAll}
        onClose={filterModal.close}
        onApply={(next) => {
          setFilter(next);
          filterModal.close();
        }}
      />
      <NewTicketModal opened={newOpened} userId={userId} onClose={newModal.close} onOpenTicket={openTicket} />
    </Group>
  );
}

const srOnly = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
