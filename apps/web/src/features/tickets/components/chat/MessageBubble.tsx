import { memo } from 'react';
import { Badge, Button, Checkbox, Group, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconChecks, IconClock, IconPencil } from '@tabler/icons-react';
import clsx from 'clsx';
import { useTranslation } from 'react-i18next';
import type { MessageDto } from '@conversa/shared';
import { dateTimeOf, isActionable, messageText, timeOf } from '../../hooks/chat-format';
import type { ChatMessage } from '../../hooks/messages-cache';
import { canForward, isOfficialKind } from '../../hooks/official-messages';
import classes from './chat.module.css';
import { MessageActions, type MessageActionHandlers } from './MessageActions';
import { MessageContent } from './MessageContent';
import { OfficialContent } from './OfficialContent';
import { useQuoteAuthor } from './quote-author';
import { sendErrorText } from './send-error';

export interface BubbleHandlers extends MessageActionHandlers {
  onQuoteClick: (id: number) => void;
  onToggleSelect: (message: MessageDto) => void;
  onRetry: (message: ChatMessage) => void;
  onDiscard: (message: ChatMessage) => void;
  /** A failed text can always be sent again; a failed file only while this page still holds it. */
  canRetry: (message: ChatMessage) => boolean;
}

/** Ack ticks (§20.3): 0 clock, 1 one tick, 2 two ticks, 3-4 two blue ticks; always with a text label. */
export function AckIcon({ ack, pending }: { ack: number; pending?: boolean }) {
  const { t } = useTranslation();
  if (pending || ack <= 0) {
    return <IconClock size={14} role="img" aria-label={t('chat.ack.pending')} data-ack="0" />;
  }
  if (ack === 1) return <IconCheck size={14} role="img" aria-label={t('chat.ack.sent')} data-ack="1" />;
  if (ack === 2) return <IconChecks size={14} role="img" aria-label={t('chat.ack.delivered')} data-ack="2" />;
  return (
    <IconChecks
      size={14}
      role="img"
      color="var(--mantine-color-blue-6)"
      aria-label={ack >= 4 ? t('chat.ack.played') : t('chat.ack.read')}
      data-ack={String(ack)}
    />
  );
}

function QuotedBlock({ message, onClick }: { message: MessageDto; onClick: (id: number) => void }) {
  const quoted = message.quotedMsg;
  if (!quoted) return null;
  return <QuotedButton quoted={quoted} onClick={onClick} />;
}

function QuotedButton({
  quoted,
  onClick,
}: {
  quoted: NonNullable<MessageDto['quotedMsg']>;
  onClick: (id: number) => void;
}) {
  const { t } = useTranslation();
  const author = useQuoteAuthor(quoted);
  const text = quoted.isDeleted
    ? t('chat.quote.deleted')
    : quoted.body || quoted.mediaName || t(`chat.mediaTypes.${quoted.mediaType}`);
  // Named by what it shows (author and text: axe's label-content-name-mismatch); where it leads is its description.
  return (
    <UnstyledButton
      className={classes.quote}
      onClick={() => onClick(quoted.id)}
      title={t('chat.quote.goTo', { author })}
      data-testid={`message-quote-${quoted.id}`}
    >
      <Text size="xs" fw={600}>
        {author}
      </Text>
      <Text size="xs" lineClamp={2}>
        {text}
      </Text>
    </UnstyledButton>
  );
}

interface MessageBubbleProps {
  message: ChatMessage;
  isGroup: boolean;
  selectMode: boolean;
  selected: boolean;
  highlighted: boolean;
  /** Pending (not yet sent) messages from messagesOffLine. */
  offline: boolean;
  handlers: BubbleHandlers;
}

export const MessageBubble = memo(function MessageBubble({
  message,
  isGroup,
  selectMode,
  selected,
  highlighted,
  offline,
  handlers,
}: MessageBubbleProps) {
  const { t } = useTranslation();
  const out = message.fromMe;
  const local = message.localState;
  const actionable = isActionable(message) && !local;
  const isNote = message.mediaType === 'notes';
  const isTransfer = message.mediaType === 'transfer';
  const edited = message.edition !== null && !message.isDeleted;

  if (isTransfer) {
    return (
      <div className={classes.separator} data-testid={`message-${message.id}`}>
        <Badge variant="light" color="gray" tt="none" size="lg" radius="sm">
          {messageText(message)} · {timeOf(message.createdAt)}
        </Badge>
      </div>
    );
  }

  return (
    <div className={clsx(classes.row, out && classes.rowOut)} data-testid={`message-${message.id}`} data-from-me={out}>
      {selectMode && actionable && canForward(message) && !message.isDeleted ? (
        <Checkbox
          mt={6}
          checked={selected}
          onChange={() => handlers.onToggleSelect(message)}
          aria-label={t('chat.forward.select')}
          data-testid={`message-select-${message.id}`}
        />
      ) : null}
      <div
        className={clsx(
          classes.bubble,
          out && classes.bubbleOut,
          isNote && classes.bubbleNote,
          highlighted && classes.highlight,
        )}
      >
        {isNote ? (
          <Text size="xs" fw={600} c="yellow.9">
            {t('chat.note')}
          </Text>
        ) : null}
        {message.mediaType === 'transcription' ? (
          <Text size="xs" fw={600} c="dimmed">
            {t('chat.transcription')}
          </Text>
        ) : null}
        {isGroup && !out && message.contact ? (
          <Text size="xs" fw={600} c="teal.8">
            {message.contact.name}
          </Text>
        ) : null}
        {out && message.user ? (
          <Text size="xs" fw={600} c="dimmed">
            {message.user.name}
          </Text>
        ) : null}
        <QuotedBlock message={message} onClick={handlers.onQuoteClick} />
        {isOfficialKind(message) ? <OfficialContent message={message} /> : <MessageContent message={message} />}
        {message.isDeleted ? (
          <Text size="xs" fs="italic" className={classes.deletedStamp} data-testid={`message-deleted-${message.id}`}>
            {t('chat.deletedAt', { date: dateTimeOf(message.deletedAt ?? message.updatedAt) })}
          </Text>
        ) : null}
        <Group gap={4} justify="flex-end" mt={2} wrap="nowrap">
          {edited ? (
            <Text size="xs" c="dimmed" fs="italic">
              <IconPencil size={10} aria-hidden /> {t('chat.edited')}
            </Text>
          ) : null}
          <Text size="xs" c="dimmed">
            {timeOf(message.createdAt)}
          </Text>
          {out ? <AckIcon ack={message.ack} pending={offline || local === 'sending'} /> : null}
        </Group>
        {message.isDelayed || message.sendError ? (
          <Stack gap={0} mt={2} data-testid={`message-undelivered-${message.id}`}>
            <Group gap={4} wrap="nowrap">
              <IconAlertTriangle size={12} aria-hidden color="var(--mantine-color-red-text)" />
              <Tooltip label={t('chat.undeliveredHelp')} multiline w={260} withinPortal>
                <Text size="xs" c="red" fw={500} tabIndex={0}>
                  {t('chat.undelivered')}
                </Text>
              </Tooltip>
            </Group>
            {/* The provider's reason (e.g. "131047: Re-engagement message"), in words next to the state. */}
            {message.sendError ? (
              <Text size="xs" c="red" data-testid={`message-send-error-${message.id}`}>
                {sendErrorText(t, message.sendError)}
              </Text>
            ) : null}
          </Stack>
        ) : null}
        {local === 'failed' ? (
          <Group gap={4} mt={4}>
            <Text size="xs" c="red" fw={500}>
              {t('chat.sendFailed')}
            </Text>
            {handlers.canRetry(message) ? (
              <Button size="compact-xs" variant="light" onClick={() => handlers.onRetry(message)}>
                {t('common.retry')}
              </Button>
            ) : null}
            <Button size="compact-xs" variant="subtle" color="gray" onClick={() => handlers.onDiscard(message)}>
              {t('chat.discard')}
            </Button>
          </Group>
        ) : null}
      </div>
      {message.reaction || message.reactionFromMe ? (
        <Group gap={2} mt={6}>
          {message.reaction ? (
            <Badge
              variant="default"
              size="lg"
              radius="xl"
              aria-label={t('chat.reaction.contact', { emoji: message.reaction })}
            >
              {message.reaction}
            </Badge>
          ) : null}
          {message.reactionFromMe ? (
            <Badge
              variant="default"
              size="lg"
              radius="xl"
              aria-label={t('chat.reaction.mine', { emoji: message.reactionFromMe })}
            >
              {message.reactionFromMe}
            </Badge>
          ) : null}
        </Group>
      ) : null}
      {actionable && !message.isDeleted && !selectMode ? (
        <MessageActions
          message={message}
          canEdit={out && message.mediaType === 'chat'}
          canDelete={out}
          handlers={handlers}
        />
      ) : null}
    </div>
  );
});
