import { useState } from 'react';
import { Alert, Button, Group, Modal, SegmentedControl, Select, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TicketDto } from '@conversa/shared';
import { ApiError, describeError } from '../../../../lib/api';
import { notifySuccess } from '../../../../lib/notify';
import { useActiveChatFlows, useHandToChatBot } from '../../hooks/chat-flow-transfer';
import { useChangeTicket, useQueues, useTransferUsers } from '../../hooks/chat-ticket';

/**
 * Transfer to a queue and/or a user: PUT /tickets/{id} { userId|null, queueId, status: userId ? 'open' : 'pending',
 * isTransference: 1 }; or to the chatbot: PUT /ticketsChatBot/{id} { chatFlowId } (an active flow). A refusal (same
 * assignee …) is shown inside the dialog with the catalogue text.
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
  const [target, setTarget] = useState<'people' | 'chatbot'>('people');
  const [chatFlowId, setChatFlowId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const queues = useQueues(opened);
  const users = useTransferUsers(opened, canListUsers);
  const flows = useActiveChatFlows(opened && target === 'chatbot');
  const change = useChangeTicket(ticket.id, { handlesErrors: true });
  const handToBot = useHandToChatBot(ticket.id);

  const done = () => {
    notifySuccess(t('chat.transfer.done'));
    onClose();
  };
  const failed = (failure: Error) =>
    setError(failure instanceof ApiError && failure.notified ? null : describeError(failure));

  const submit = () => {
    setError(null);
    if (target === 'chatbot') {
      if (chatFlowId) handToBot.mutate(Number(chatFlowId), { onSuccess: done, onError: failed });
      return;
    }
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
      { onSuccess: done, onError: failed },
    );
  };

  // The current queue and assignee say so: picking the current queue keeps it (it used to clear the field), the
  // current assignee cannot be picked, and a transfer that would change nothing is not offered.
  const queueOptions = (queues.data ?? [])
    .filter((queue) => queue.isActive !== false || queue.id === ticket.queueId)
    .map((queue) => ({
      value: String(queue.id),
      label: queue.id === ticket.queueId ? t('chat.transfer.currentQueue', { name: queue.queue }) : queue.queue,
    }));
  const userOptions = users.users.map((user) =>
    user.id === ticket.userId
      ? { value: String(user.id), label: t('chat.transfer.currentUser', { name: user.name }), disabled: true }
      : { value: String(user.id), label: user.name },
  );
  const sameQueue = queueId !== null && queueId === String(ticket.queueId);
  const unchanged = sameQueue && !userId && ticket.userId === null;
  const flowOptions = flows.flows.map((flow) => ({ value: String(flow.id), label: flow.name }));

  return (
    <Modal opened={opened} onClose={onClose} title={t('chat.transfer.title')} centered>
      <Stack gap="sm">
        <SegmentedControl
          aria-label={t('chat.transfer.target')}
          fullWidth
          value={target}
          onChange={(value) => {
            setTarget(value === 'chatbot' ? 'chatbot' : 'people');
            setError(null);
          }}
          data={[
            { value: 'people', label: t('chat.transfer.targetPeople') },
            { value: 'chatbot', label: t('chat.transfer.targetChatbot') },
          ]}
          data-testid="chat-transfer-target"
        />
        {target === 'chatbot' ? (
          <TargetSelect
            label={t('chat.transfer.chatFlow')}
            description={t('chat.transfer.chatFlowHint')}
            placeholder={t('chat.transfer.chatFlowPlaceholder')}
            state={flows}
            loadError={t('chat.transfer.chatFlowsError')}
            nothingFound={t('chat.transfer.noChatFlows')}
            data={flowOptions}
            value={chatFlowId}
            onChange={setChatFlowId}
            testId="chat-transfer-chat-flow"
          />
        ) : (
          <>
            <TargetSelect
              label={t('chat.transfer.queue')}
              placeholder={t('chat.transfer.queuePlaceholder')}
              state={queues}
              loadError={t('chat.transfer.queuesError')}
              nothingFound={t('chat.transfer.none')}
              data={queueOptions}
              value={queueId}
              onChange={setQueueId}
              clearable
              hint={unchanged ? t('chat.transfer.sameQueue') : undefined}
              testId="chat-transfer-queue"
            />
            <TargetSelect
              label={t('chat.transfer.user')}
              description={t('chat.transfer.userHint')}
              placeholder={t('chat.transfer.userPlaceholder')}
              state={users}
              loadError={t('chat.transfer.usersError')}
              nothingFound={t('chat.transfer.none')}
              data={userOptions}
              value={userId}
              onChange={setUserId}
              clearable
              testId="chat-transfer-user"
            />
          </>
        )}
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
            loading={change.isPending || handToBot.isPending}
            disabled={target === 'chatbot' ? !chatFlowId : (!queueId && !userId) || unchanged}
            data-testid="chat-transfer-submit"
          >
            {t('chat.transfer.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** A searchable pick of a transfer's target, saying while its options load and when they could not. */
function TargetSelect(props: {
  label: string;
  description?: string;
  placeholder: string;
  state: { isLoading: boolean; isError: boolean };
  loadError: string;
  nothingFound: string;
  data: { value: string; label: string; disabled?: boolean }[];
  value: string | null;
  onChange: (value: string | null) => void;
  clearable?: boolean;
  /** Why the picked value would not do (a validation text under the field). */
  hint?: string | undefined;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Select
      label={props.label}
      description={props.description}
      placeholder={props.state.isLoading ? t('common.loading') : props.placeholder}
      data={props.data}
      value={props.value}
      onChange={props.onChange}
      clearable={props.clearable}
      allowDeselect={false}
      searchable
      nothingFoundMessage={props.nothingFound}
      error={props.state.isError ? props.loadError : props.hint}
      data-testid={props.testId}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
