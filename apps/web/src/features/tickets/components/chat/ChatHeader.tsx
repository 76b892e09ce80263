import { useState } from 'react';
import { ActionIcon, Avatar, Badge, Button, Group, Menu, Stack, Text, UnstyledButton } from '@mantine/core';
import {
  IconArrowBackUp,
  IconCheck,
  IconChevronDown,
  IconDotsVertical,
  IconHistory,
  IconHistoryToggle,
  IconLock,
  IconMessageOff,
  IconPlayerPlay,
  IconRefresh,
  IconSpeakerphone,
  IconTransfer,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TicketDto, TicketStatus } from '@conversa/shared';
import { initialsOf } from '../../hooks/chat-format';
import { useChangeTicket, type TicketChange } from '../../hooks/chat-ticket';
import { LogsModal } from './LogsModal';
import { ChatNoteActions } from './ChatNotes';
import { ResolveModal } from './ResolveModal';
import { canSyncHistory, SyncHistoryModal } from './SyncHistoryModal';
import { TransferModal } from './TransferModal';

const STATUS_COLOR: Record<TicketStatus, string> = { open: 'teal', pending: 'yellow', closed: 'gray' };

/** The status changes of client-contract §4.3, with the body each one sends. */
export const ticketChanges = {
  accept: (me: number): TicketChange => ({ kind: 'update', body: { status: 'open', userId: me } }),
  returnToQueue: (): TicketChange => ({ kind: 'update', body: { status: 'pending', userId: null } }),
  resolve: (userId: number | null, sendFarewell: boolean): TicketChange => ({
    kind: 'update',
    body: { status: 'closed', userId, sendFarewell },
  }),
  forceClose: (userId: number | null): TicketChange => ({ kind: 'force', body: { status: 'closed', userId } }),
  reopen: (me: number): TicketChange => ({ kind: 'update', body: { status: 'open', userId: me } }),
};

interface ChatHeaderProps {
  ticket: TicketDto;
  meId: number;
  canListUsers: boolean;
  /** Admins may import a chat's older messages from its live WhatsApp session. */
  liveSessionTools: boolean;
  onOpenContact: () => void;
}

/** Contact, channel, protocol, status and assignee, and the actions the ticket's status allows. */
export function ChatHeader({ ticket, meId, canListUsers, liveSessionTools, onOpenContact }: ChatHeaderProps) {
  const { t } = useTranslation();
  const change = useChangeTicket(ticket.id);
  const [transferOpen, setTransferOpen] = useState(false);
  const [logsOpen, setLogsOpen] = useState(false);
  const [syncOpen, setSyncOpen] = useState(false);
  const [resolveOpen, setResolveOpen] = useState(false);
  const showSync = liveSessionTools && canSyncHistory(ticket);
  const run = (next: TicketChange) => change.mutate(next);
  const owner = ticket.userId ?? meId;
  const busy = change.isPending;

  return (
    <Group
      justify="space-between"
      p="xs"
      gap="xs"
      wrap="wrap"
      style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
    >
      <UnstyledButton onClick={onOpenContact} data-testid="chat-contact-open">
        {/* Hidden text, not aria-label: a label would have to contain all the visible text (initials, channel). */}
        <span className="visually-hidden">{t('chat.header.openContact', { name: ticket.contact.name })}</span>
        <Group gap="sm" wrap="nowrap" aria-hidden>
          <Avatar src={ticket.contact.profilePicUrl} alt="" radius="xl">
            {initialsOf(ticket.contact.name)}
          </Avatar>
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text fw={600} truncate data-testid="chat-contact-name">
              {ticket.contact.name}
            </Text>
            <Text size="xs" c="dimmed" truncate>
              {[ticket.whatsapp?.name ?? ticket.channel, t('chat.header.protocol', { protocol: ticket.protocol })].join(
                ' · ',
              )}
            </Text>
          </Stack>
        </Group>
      </UnstyledButton>
      <Group gap="xs" wrap="wrap">
        <Badge color={STATUS_COLOR[ticket.status]} variant="light" data-testid="chat-status">
          {t(`chat.status.${ticket.status}`)}
        </Badge>
        {ticket.campaign ? (
          <Badge
            color="grape"
            variant="outline"
            leftSection={<IconSpeakerphone size={12} aria-hidden />}
            data-testid="chat-campaign"
          >
            {t('chat.header.campaign', { name: ticket.campaign.name })}
          </Badge>
        ) : null}
        <Text size="xs" c="dimmed">
          {ticket.user?.name ? t('chat.header.assignee', { name: ticket.user.name }) : t('chat.header.unassigned')}
        </Text>
        {ticket.status === 'pending' ? (
          <Button
            size="xs"
            leftSection={<IconPlayerPlay size={14} aria-hidden />}
            onClick={() => run(ticketChanges.accept(meId))}
            loading={busy}
            data-testid="chat-action-accept"
          >
            {t('chat.header.accept')}
          </Button>
        ) : null}
        {ticket.status === 'open' ? (
          <>
            <Button
              size="xs"
              variant="default"
              leftSection={<IconArrowBackUp size={14} aria-hidden />}
              onClick={() => run(ticketChanges.returnToQueue())}
              disabled={busy}
              data-testid="chat-action-return"
            >
              {t('chat.header.returnToQueue')}
            </Button>
            {/* Resolve opens the dialog (closing message, reason, rating); force close stays one step, in the menu. */}
            <Button
              size="xs"
              color="teal"
              leftSection={<IconCheck size={14} aria-hidden />}
              onClick={() => setResolveOpen(true)}
              loading={busy}
              aria-haspopup="dialog"
              data-testid="chat-action-resolve"
            >
              {t('chat.header.resolve')}
            </Button>
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <ActionIcon
                  size="md"
                  variant="subtle"
                  color="teal"
                  aria-label={t('resolve.dialog.moreOptions')}
                  disabled={busy}
                  data-testid="chat-action-resolve-menu"
                >
                  <IconChevronDown size={14} aria-hidden />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item
                  color="red"
                  leftSection={<IconMessageOff size={16} aria-hidden />}
                  onClick={() => run(ticketChanges.forceClose(owner))}
                  data-testid="chat-action-force-close"
                >
                  {t('chat.header.forceClose')}
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </>
        ) : null}
        {ticket.status === 'closed' ? (
          <Button
            size="xs"
            variant="light"
            leftSection={<IconRefresh size={14} aria-hidden />}
            onClick={() => run(ticketChanges.reopen(meId))}
            loading={busy}
            data-testid="chat-action-reopen"
          >
            {t('chat.header.reopen')}
          </Button>
        ) : null}
        {ticket.status !== 'closed' ? (
          <Button
            size="xs"
            variant="default"
            leftSection={<IconTransfer size={14} aria-hidden />}
            onClick={() => setTransferOpen(true)}
            data-testid="chat-action-transfer"
          >
            {t('chat.header.transfer')}
          </Button>
        ) : null}
        <Button
          size="xs"
          variant="subtle"
          leftSection={<IconHistory size={14} aria-hidden />}
          onClick={() => setLogsOpen(true)}
          data-testid="chat-action-logs"
        >
          {t('chat.header.logs')}
        </Button>
        <ChatNoteActions ticket={ticket} />
        {showSync ? (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" size="md" aria-label={t('chat.header.more')} data-testid="chat-action-more">
                <IconDotsVertical size={16} aria-hidden />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item
                leftSection={<IconHistoryToggle size={16} aria-hidden />}
                onClick={() => setSyncOpen(true)}
                data-testid="chat-action-sync-history"
              >
                {t('chat.syncHistory.action')}
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        ) : null}
        {ticket.contact.blocked ? (
          <Badge color="red" variant="light" leftSection={<IconLock size={12} aria-hidden />}>
            {t('chat.contact.blocked')}
          </Badge>
        ) : null}
      </Group>
      {transferOpen ? (
        <TransferModal ticket={ticket} opened onClose={() => setTransferOpen(false)} canListUsers={canListUsers} />
      ) : null}
      <LogsModal ticketId={ticket.id} opened={logsOpen} onClose={() => setLogsOpen(false)} />
      {resolveOpen ? (
        <ResolveModal ticket={ticket} ownerId={owner} opened onClose={() => setResolveOpen(false)} />
      ) : null}
      {showSync ? <SyncHistoryModal ticket={ticket} opened={syncOpen} onClose={() => setSyncOpen(false)} /> : null}
    </Group>
  );
}
