import { useState } from 'react';
import { Badge, Stack, Switch, Tabs, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useTicketTabCounts } from '../api/ticket-counts';
import type { ListFilter } from '../hooks/attendance-filter';
import { subTabBadge } from '../hooks/ticket-counts';
import { formatUnreadCount } from '../../../lib/unread-count';
import {
  LIST_TABS,
  listTabsOf,
  TOP_TABS,
  type ListTab,
  type TicketPartitions,
  type TopTab,
} from '../hooks/ticket-partitions';
import { TicketList } from './TicketList';

interface TicketListTabsProps {
  partitions: TicketPartitions;
  /** The tenant flag showChatBot: the private tab gets the "Chatbot" sub-tab (the partitions already hold it). */
  showChatBot: boolean;
  /** The list's server filter: the sub-tab badges count it per status on the server. */
  listFilter: ListFilter;
  /** False while tag or kanban filters (applied on the client only) are on: the server cannot count those. */
  serverCounts: boolean;
  /** "Resolved" fills only when closed tickets are in the filter (client-contract §4.1). */
  includesClosed: boolean;
  onIncludeClosed: (include: boolean) => void;
  searching: boolean;
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
}

function findSelected(partitions: TicketPartitions, id: number | null) {
  if (id === null) return null;
  for (const top of TOP_TABS) {
    for (const sub of LIST_TABS) {
      const ticket = partitions[top].tabs[sub].find((item) => item.id === id);
      if (ticket) return { id, status: sub, isGroup: top === 'groups' };
    }
  }
  return null;
}

const TOP_TEST_IDS: Record<TopTab, string> = { private: 'tickets-tab-private', groups: 'tickets-tab-groups' };

/**
 * Top tabs private/groups (unread badges) and sub-tabs open/pending/resolved: partitions of one list, with badges
 * showing the server's totals (a capped total as "1000+"), or the loaded rows until those arrive.
 */
export function TicketListTabs({
  partitions,
  showChatBot,
  listFilter,
  serverCounts,
  includesClosed,
  onIncludeClosed,
  searching,
  ...list
}: TicketListTabsProps) {
  const { t } = useTranslation();
  const [top, setTop] = useState<TopTab>('private');
  const [chosenSub, setSub] = useState<ListTab>('open');
  const counts = useTicketTabCounts(listFilter, top, serverCounts);
  const badge = (tab: TopTab, list: ListTab) =>
    subTabBadge(partitions[tab], list, tab === top && list !== 'chatbot' ? counts[list] : undefined);
  // The groups tab (or the flag turned off) has no Chatbot tab: its pending tab stands in.
  const sub: ListTab = listTabsOf(top, showChatBot).includes(chosenSub) ? chosenSub : 'pending';
  // The tabs follow the selected ticket when it is opened or changes status (accepted, returned to the queue), so
  // the row the agent works on stays in sight. Adjusted during render, not in an effect (no extra paint).
  const selected = findSelected(partitions, list.selectedId);
  const followKey = selected ? `${selected.id}:${selected.status}` : null;
  const [followed, setFollowed] = useState<string | null>(null);
  if (followKey !== followed) {
    setFollowed(followKey);
    if (selected && (selected.status !== 'closed' || includesClosed)) {
      setSub(selected.status);
      setTop(selected.isGroup ? 'groups' : 'private');
    }
  }
  return (
    <Tabs
      value={top}
      onChange={(value) => value && setTop(value as TopTab)}
      keepMounted={false}
      style={{ flex: 1, display: 'flex', flexDirection: 'column', minHeight: 0 }}
    >
      <Tabs.List grow>
        {TOP_TABS.map((tab) => (
          <Tabs.Tab
            key={tab}
            value={tab}
            data-testid={TOP_TEST_IDS[tab]}
            rightSection={
              partitions[tab].unread > 0 ? (
                <Badge
                  size="xs"
                  color="green"
                  circle={partitions[tab].unread < 10}
                  style={{ flexShrink: 0 }}
                  aria-label={t('tickets.unreadTickets', { count: partitions[tab].unread })}
                  data-testid={`${TOP_TEST_IDS[tab]}-unread`}
                >
                  {formatUnreadCount(partitions[tab].unread)}
                </Badge>
              ) : null
            }
          >
            {t(`tickets.tabs.${tab}`)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {TOP_TABS.map((tab) => (
        <Tabs.Panel key={tab} value={tab} style={{ flex: 1, display: 'flex', flexDirection: 'column', minHeight: 0 }}>
          <Tabs
            value={sub}
            onChange={(value) => value && setSub(value as ListTab)}
            keepMounted={false}
            variant="pills"
            style={{ flex: 1, display: 'flex', flexDirection: 'column', minHeight: 0 }}
          >
            <Tabs.List grow p={6}>
              {listTabsOf(tab, showChatBot).map((status) => (
                <Tabs.Tab
                  key={status}
                  value={status}
                  data-testid={`tickets-subtab-${status}`}
                  rightSection={
                    <Badge size="xs" variant="light" data-testid={`tickets-count-${status}`}>
                      {badge(tab, status)}
                    </Badge>
                  }
                >
                  {t(`tickets.subtabs.${status}`)}
                </Tabs.Tab>
              ))}
            </Tabs.List>
            {listTabsOf(tab, showChatBot).map((status) => (
              <Tabs.Panel
                key={status}
                value={status}
                style={{ flex: 1, display: 'flex', flexDirection: 'column', minHeight: 0 }}
              >
                {status === 'closed' ? (
                  <Switch
                    mx="sm"
                    mb={6}
                    size="xs"
                    label={t('tickets.includeClosed')}
                    checked={includesClosed}
                    onChange={(event) => onIncludeClosed(event.currentTarget.checked)}
                    data-testid="tickets-include-closed"
                  />
                ) : null}
                {status === 'closed' && !includesClosed ? (
                  <Stack p="md">
                    <Text size="sm" c="dimmed" ta="center">
                      {t('tickets.closedHidden')}
                    </Text>
                  </Stack>
                ) : (
                  <TicketList
                    {...list}
                    tickets={partitions[tab].tabs[status]}
                    label={t('tickets.listOf', {
                      tab: t(`tickets.tabs.${tab}`),
                      status: t(`tickets.subtabs.${status}`),
                    })}
                    empty={
                      <Text size="sm" c="dimmed" ta="center" data-testid="tickets-empty">
                        {searching ? t('tickets.noResults') : t(`tickets.empty.${status}`)}
                      </Text>
                    }
                  />
                )}
              </Tabs.Panel>
            ))}
          </Tabs>
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}
