import { memo } from 'react';
import { ActionIcon, Group, Text, Tooltip } from '@mantine/core';
import { IconNote, IconPencil, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { dateTimeOf, timeOf } from '../../hooks/chat-format';
import type { ChatMessage } from '../../hooks/messages-cache';
import { splitMentions, type MentionUser } from '../../hooks/note-mentions';
import classes from './notes.module.css';

interface NoteBubbleProps {
  /** The note as a history item (hooks/chat-notes.ts). */
  message: ChatMessage;
  /** The author or an admin: edit and delete. */
  canChange: boolean;
  users: MentionUser[];
  onEdit: (message: ChatMessage) => void;
  onDelete: (message: ChatMessage) => void;
}

/** An internal note in the chat: yellow, centred (never a message to or from the customer), mentions in bold. */
export const NoteBubble = memo(function NoteBubble({ message, canChange, users, onEdit, onDelete }: NoteBubbleProps) {
  const { t } = useTranslation();
  const author = message.user?.name ?? t('notes.deletedUser');
  return (
    <div className={classes.row} data-testid={`chat-note-${-message.id}`}>
      <div className={classes.note} role="note" aria-label={t('notes.bubbleLabel', { author })}>
        <Group gap={6} justify="space-between" wrap="nowrap">
          <Group gap={4} wrap="nowrap">
            <IconNote size={14} aria-hidden className={classes.label} />
            <Text size="xs" fw={700} className={classes.label}>
              {t('notes.internal')}
            </Text>
            <Text size="xs" fw={600}>
              · {author}
            </Text>
          </Group>
          {canChange ? (
            <Group gap={2} wrap="nowrap">
              <Tooltip label={t('common.edit')}>
                <ActionIcon
                  variant="subtle"
                  size="sm"
                  color="gray"
                  aria-label={t('notes.edit')}
                  onClick={() => onEdit(message)}
                  data-testid={`chat-note-edit-${-message.id}`}
                >
                  <IconPencil size={14} aria-hidden />
                </ActionIcon>
              </Tooltip>
              <Tooltip label={t('common.delete')}>
                <ActionIcon
                  variant="subtle"
                  size="sm"
                  color="red"
                  aria-label={t('notes.delete')}
                  onClick={() => onDelete(message)}
                  data-testid={`chat-note-delete-${-message.id}`}
                >
                  <IconTrash size={14} aria-hidden />
                </ActionIcon>
              </Tooltip>
            </Group>
          ) : null}
        </Group>
        <Text size="sm" mt={2}>
          {splitMentions(message.body, users).map((part, index) =>
            part.mention ? (
              <span key={index} className={classes.mention}>
                {part.text}
              </span>
            ) : (
              <span key={index}>{part.text}</span>
            ),
          )}
        </Text>
        <Group gap={4} justify="flex-end">
          {message.editedAt ? (
            <Text size="xs" c="dimmed" fs="italic">
              {t('chat.edited')}
            </Text>
          ) : null}
          <Text size="xs" c="dimmed" title={dateTimeOf(message.createdAt)}>
            {timeOf(message.createdAt)}
          </Text>
        </Group>
      </div>
    </div>
  );
});
