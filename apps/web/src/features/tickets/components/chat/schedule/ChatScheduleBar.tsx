/**
 * Above the composer: "schedule message" (the schedule form for this conversation) and, when there are any, the
 * ticket's pending scheduled messages as a collapsible list with edit and cancel.
 */
import { useState } from 'react';
import { Button, Group } from '@mantine/core';
import { IconCalendarPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TicketDto } from '@conversa/shared';
import { ScheduleFormModal } from '../../../../../components/ScheduleFormModal';
import { ChatScheduledList } from './ChatScheduledList';

export function ChatScheduleBar({ ticket }: { ticket: TicketDto }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap" px="xs" pt={4} style={{ flexShrink: 0 }}>
        <ChatScheduledList ticketId={ticket.id} />
        <Button
          variant="subtle"
          size="compact-sm"
          leftSection={<IconCalendarPlus size={16} aria-hidden />}
          onClick={() => setOpen(true)}
          data-testid="chat-schedule"
          ml="auto"
        >
          {t('schedules.chat.schedule')}
        </Button>
      </Group>
      <ScheduleFormModal
        opened={open}
        onClose={() => setOpen(false)}
        target={{
          contactId: ticket.contactId,
          contactName: ticket.contact.name,
          channelId: ticket.whatsappId,
          ticketId: ticket.id,
        }}
      />
    </>
  );
}
