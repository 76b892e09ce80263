import { memo } from 'react';
import { Avatar, Badge, Box, Button, ColorSwatch, Group, Stack, Text, Tooltip } from '@mantine/core';
import {
  IconBrandInstagram,
  IconBrandMessenger,
  IconBrandTelegram,
  IconBrandWhatsapp,
  IconMail,
  IconMessageCircle,
  IconSearch,
  IconUser,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TicketListItem as TicketRow, TicketSearchMatch } from '@conversa/shared';
import { channelFamily, formatTicketTime, initials, type ChannelFamily } from '../hooks/ticket-format';
import { formatUnreadCount } from '../../../lib/unread-count';
import { ticketPreview } from '../hooks/ticket-preview';
import { searchSnippet, useSearchTerm } from '../hooks/search-match';

const CHANNEL_ICONS: Record<ChannelFamily, typeof IconBrandWhatsapp> = {
  whatsapp: IconBrandWhatsapp,
  telegram: IconBrandTelegram,
  instagram: IconBrandInstagram,
  messenger: IconBrandMessenger,
  email: IconMail,
  other: IconMessageCircle,
};

const UNREAD_BADGE_STYLE = { flexShrink: 0 } as const;

interface TicketListItemProps {
  /** `searchMatch`: the message a text search found (shown, and opened in the chat). */
  ticket: TicketRow & { searchMatch?: TicketSearchMatch };
  selected: boolean;
  /** The one row reachable with Tab (roving focus). */
  tabbable: boolean;
  accepting: boolean;
  onOpen: (id: number, messageId?: number) => void;
  onAccept: (id: number) => void;
}

/** The message a text search found: a snippet with the term's words marked, and its time. */
function SearchMatchLine({ match, ticketId }: { match: TicketSearchMatch; ticketId: number }) {
  const { t } = useTranslation();
  const term = useSearchTerm();
  const time = formatTicketTime(Date.parse(match.createdAt));
  return (
    <Group gap={4} wrap="nowrap" data-testid={`ticket-search-match-${ticketId}`}>
      <IconSearch size={12} aria-hidden style={{ flexShrink: 0 }} />
      <Text size="xs" truncate="end" style={{ flex: 1, minWidth: 0 }}>
        <span style={SR_ONLY}>{t('tickets.row.searchMatch')} </span>
        {searchSnippet(match.body, term).map((part, index) =>
          part.marked ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>,
        )}
      </Text>
      <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
        <span style={SR_ONLY}>{t('tickets.row.searchMatchAt')} </span>
        {time}
      </Text>
    </Group>
  );
}

const SR_ONLY = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/** One ticket row (client-contract §20.1). Click or Enter opens it; a pending row offers "start attending". */
export const TicketListItem = memo(function TicketListItem({
  ticket,
  selected,
  tabbable,
  accepting,
  onOpen,
  onAccept,
}: TicketListItemProps) {
  const { t } = useTranslation();
  const ChannelIcon = CHANNEL_ICONS[channelFamily(ticket.channel)];
  const time = formatTicketTime(ticket.lastMessageAt);
  const preview = ticketPreview(ticket.lastMessage);
  return (
    <Box
      component="li"
      data-testid={`ticket-row-${ticket.id}`}
      data-ticket-row={ticket.id}
      tabIndex={tabbable ? 0 : -1}
      aria-current={selected ? 'true' : undefined}
      onClick={() => onOpen(ticket.id, ticket.searchMatch?.id)}
      onKeyDown={(event) => {
        if (event.target !== event.currentTarget) return;
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          onOpen(ticket.id, ticket.searchMatch?.id);
        }
      }}
      px="sm"
      py={8}
      style={{
        cursor: 'pointer',
        listStyle: 'none',
        borderBottom: '1px solid var(--mantine-color-default-border)',
        borderLeft: `3px solid ${selected ? 'var(--mantine-primary-color-filled)' : 'transparent'}`,
        background: selected ? 'var(--mantine-primary-color-light)' : undefined,
      }}
    >
      <Group wrap="nowrap" align="flex-start" gap="sm">
        <Avatar src={ticket.profilePicUrl} alt="" radius="xl" size={40} color="initials" name={ticket.name}>
          {initials(ticket.name)}
        </Avatar>
        <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
          <Group gap={6} wrap="nowrap" justify="space-between">
            <Text fw={600} size="sm" truncate="end">
              {ticket.name}
            </Text>
            <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
              {time}
            </Text>
          </Group>
          <Group gap={6} wrap="nowrap" justify="space-between">
            <Group gap={4} wrap="nowrap" style={{ minWidth: 0 }}>
              <ChannelIcon size={14} aria-label={ticket.channel} role="img" style={{ flexShrink: 0 }} />
              <Text size="xs" c="dimmed" truncate="end" data-testid={`ticket-preview-${ticket.id}`}>
                {preview.kind === 'media' ? (
                  <>
                    <span aria-hidden>{preview.icon} </span>
                    {t(preview.labelKey)}
                  </>
                ) : (
                  preview.text
                )}
              </Text>
            </Group>
            {ticket.unreadMessages > 0 ? (
              // Never shrunk by a long preview beside it (it clipped "39" to "3."): sized to its 1-3 characters.
              <Badge
                size="sm"
                circle={ticket.unreadMessages < 10}
                color="green"
                data-testid={`ticket-unread-${ticket.id}`}
                aria-label={t('tickets.unreadBadge', { count: ticket.unreadMessages })}
                style={UNREAD_BADGE_STYLE}
              >
                {formatUnreadCount(ticket.unreadMessages)}
              </Badge>
            ) : null}
          </Group>
          {ticket.searchMatch ? <SearchMatchLine match={ticket.searchMatch} ticketId={ticket.id} /> : null}
          <Group gap={6} wrap="nowrap" justify="space-between">
            <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
              <Group gap={2} wrap="nowrap" style={{ minWidth: 0 }}>
                <IconUser size={12} aria-hidden style={{ flexShrink: 0 }} />
                <Text size="xs" c="dimmed" truncate="end">
                  {ticket.username ?? t('tickets.row.unassigned')}
                </Text>
              </Group>
              {ticket.queue ? (
                <Badge size="xs" variant="light" style={{ flexShrink: 0 }}>
                  {ticket.queue}
                </Badge>
              ) : null}
              {ticket.tags.map((tag) => (
                <Tooltip key={tag.id} label={tag.tag} withinPortal>
                  <ColorSwatch color={tag.color} size={8} aria-label={tag.tag} role="img" />
                </Tooltip>
              ))}
            </Group>
            {ticket.status === 'pending' ? (
              <Button
                size="compact-xs"
                data-testid={`ticket-accept-${ticket.id}`}
                loading={accepting}
                onClick={(event) => {
                  event.stopPropagation();
                  onAccept(ticket.id);
                }}
                onKeyDown={(event) => event.stopPropagation()}
                aria-label={t('tickets.row.acceptLabel', { name: ticket.name })}
              >
                {t('tickets.row.accept')}
              </Button>
            ) : null}
          </Group>
        </Stack>
      </Group>
    </Box>
  );
});
