import { useState } from 'react';
import { Alert, Button, Group, Modal, Select, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TicketDto } from '@conversa/shared';
import { ApiError, describeError } from '../../../../lib/api';
import { notifySuccess } from '../../../../lib/notify';
import { useChangeTicket, useQueues, useTransferUsers } from '../../hooks/chat-ticket';

/**
 * Transfer to a queue and/or a user: PUT /tickets/{id} { userId|null, queueId, status: userId ? 'open' : 'pending',
 * isTransference: 1 }. A refusal (same assignee …) is shown inside the dialog with the catalogue text.
 */
export function TransferModal({
  ticket,
  opened,
  onClose,
  canListUsers,
}: {
  ticket: TicketDto;
  opened: boolean;
  onClose: () => void;
  canListUsers: boolean;
}) {
  const { t } = useTranslation();
  const [queueId, setQueueId] = useState<string | null>(ticket.queueId ? String(ticket.queueId) : null);
  const [userId, setUserId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const queues = useQueues(opened);
  const users = useTransferUsers(opened, canListUsers);
  const change = useChangeTicket(ticket.id, { handlesErrors: true });

  const submit = () => {
    setError(null);
    const user = userId ? Number(userId) : null;
    change.mutate(
      {
        kind: 'update',
        body: {
          userId: user,
          queueId: queueId ? Number(queueId) : null,
          status: user ? 'open' : 'pending',
          isTransference: 1,
        },
      },
      {
        onSuccess: () => {
          notifySuccess(t('chat.transfer.done'));
          onClose();
        },
        onError: (failure) => setError(failure instanceof ApiError && failure.notified ? null : describeError(failure)),
      },
    );
  };

  const queueOptions = (queues.data ?? [])
    .filter((queue) => queue.isActive !== false || queue.id === ticket.queueId)
    .map((queue) => ({ value: String(queue.id), label: queue.queue }));
  const userOptions = users.users.map((user) => ({ value: String(user.id), label: user.name }));

  return (
    <Modal opened={opened} onClose={onClose} title={t('chat.transfer.title')} centered>
      <Stack gap="sm">
        <Select
          label={t('chat.transfer.queue')}
          placeholder={queues.isLoading ? t('common.loading') : t('chat.transfer.queuePlaceholder')}
          data={queueOptions}
          value={queueId}
          onChange={setQueueId}
          clearable
          searchable
          nothingFoundMessage={t('chat.transfer.none')}
          error={queues.isError ? t('chat.transfer.queuesError') : undefined}
          data-testid="chat-transfer-queue"
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label={t('chat.transfer.user')}
          description={t('chat.transfer.userHint')}
          placeholder={users.isLoading ? t('common.loading') : t('chat.transfer.userPlaceholder')}
          data={userOptions}
          value={userId}
          onChange={setUserId}
          clearable
          searchable
          nothingFoundMessage={t('chat.transfer.none')}
          error={users.isError ? t('chat.transfer.usersError') : undefined}
          data-testid="chat-transfer-user"
          comboboxProps={{ withinPortal: true }}
        />
        {error ? (
          <Alert color="red" variant="light" role="alert" data-testid="chat-transfer-error">
            {error}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            onClick={submit}
            loading={change.isPending}
            disabled={!queueId && !userId}
            data-testid="chat-transfer-submit"
          >
            {t('chat.transfer.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
