/** The ticket panel's transfer dialog: a queue and/or an agent; the agent must belong to the chosen queue. */
import { useState } from 'react';
import { Button, Group, Modal, Select, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { usePanelQueues, usePanelUsers } from '../api/panel';
import { usersForQueue } from '../hooks/panel-groups';

export function TransferModal({
  opened,
  count,
  onClose,
  onConfirm,
}: {
  opened: boolean;
  count: number;
  onClose: () => void;
  onConfirm: (queueId: number | null, userId: number | null) => void;
}) {
  const { t } = useTranslation();
  const queues = usePanelQueues();
  const users = usePanelUsers();
  const [queueId, setQueueId] = useState<string | null>(null);
  const [userId, setUserId] = useState<string | null>(null);
  const queue = queueId ? Number(queueId) : null;
  const allowed = usersForQueue(users.data ?? [], queue);
  const userValid = userId === null || allowed.some((user) => String(user.id) === userId);
  const valid = (queueId !== null || userId !== null) && userValid;
  return (
    <Modal opened={opened} onClose={onClose} title={t('ticketPanel.transferTitle', { count })} centered>
      <Stack>
        <Select
          label={t('ticketPanel.transferQueue')}
          data={(queues.data ?? []).map((q) => ({ value: String(q.id), label: q.queue }))}
          value={queueId}
          onChange={setQueueId}
          clearable
          searchable
          data-testid="panel-transfer-queue"
        />
        <Select
          label={t('ticketPanel.transferUser')}
          description={queue ? t('ticketPanel.transferUserHelp') : undefined}
          data={allowed.map((user) => ({ value: String(user.id), label: user.name }))}
          value={userId}
          onChange={setUserId}
          clearable
          searchable
          error={userValid ? undefined : t('ticketPanel.userWithoutQueue')}
          nothingFoundMessage={t('ticketPanel.noUsersForQueue')}
          data-testid="panel-transfer-user"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            disabled={!valid}
            onClick={() => onConfirm(queue, userId ? Number(userId) : null)}
            data-testid="panel-transfer-confirm"
          >
            {t('ticketPanel.actions.transfer')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
