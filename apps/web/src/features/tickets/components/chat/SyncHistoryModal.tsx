import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TicketDto } from '@conversa/shared';
import { SyncLimitModal } from '../../../../components/SyncLimitModal';
import { ApiError, describeError } from '../../../../lib/api';
import { notifyInfo } from '../../../../lib/notify';
import { useSyncHistory, whatsappChatId } from '../../api/sync-history';

/** Whether the chat can ask its channel for older messages: a live WhatsApp channel and a number it knows. */
export const canSyncHistory = (ticket: TicketDto): boolean =>
  ticket.whatsappId !== null &&
  whatsappChatId(ticket.contact.number, ticket.isGroup || ticket.contact.isGroup) !== null;

/**
 * "Sync history" of a chat: how many messages to fetch, then POST /messages/syncOldByUser. The import runs in the
 * background; its progress toast comes from `{T}:importMessages`.
 */
export function SyncHistoryModal({
  ticket,
  opened,
  onClose,
}: {
  ticket: TicketDto;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const sync = useSyncHistory();
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setError(null);
    onClose();
  };
  const submit = (limit: number) => {
    const contactId = whatsappChatId(ticket.contact.number, ticket.isGroup || ticket.contact.isGroup);
    if (ticket.whatsappId === null || contactId === null) return;
    setError(null);
    sync.mutate(
      { whatsappId: ticket.whatsappId, limit, contactId },
      {
        onSuccess: () => {
          notifyInfo(t('historySync.started'));
          close();
        },
        onError: (failure) => setError(failure instanceof ApiError && failure.notified ? null : describeError(failure)),
      },
    );
  };
  return (
    <SyncLimitModal
      opened={opened}
      onClose={close}
      title={t('chat.syncHistory.title')}
      description={t('chat.syncHistory.description', { name: ticket.contact.name })}
      submitLabel={t('chat.syncHistory.submit')}
      loading={sync.isPending}
      error={error}
      onSubmit={submit}
      testId="chat-sync-history"
    />
  );
}
