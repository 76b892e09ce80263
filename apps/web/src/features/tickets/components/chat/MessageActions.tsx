import { useState } from 'react';
import { ActionIcon, Group, Menu, Popover, UnstyledButton } from '@mantine/core';
import {
  IconArrowBackUp,
  IconArrowForwardUp,
  IconChevronDown,
  IconCopy,
  IconDownload,
  IconMoodPlus,
  IconPencil,
  IconTrash,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { MessageDto } from '@conversa/shared';
import { notifyInfo } from '../../../../lib/notify';
import { hasFile, messageText } from '../../hooks/chat-format';
import { canForward } from '../../hooks/official-messages';
import classes from './chat.module.css';

export const REACTIONS = ['👍', '❤️', '😂', '😮', '😢', '🙏'] as const;

export interface MessageActionHandlers {
  onReply: (message: MessageDto) => void;
  onForward: (message: MessageDto) => void;
  onReact: (message: MessageDto, reaction: string) => void;
  onEdit: (message: MessageDto) => void;
  onDelete: (message: MessageDto) => void;
}

function download(url: string, name: string) {
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  anchor.target = '_blank';
  anchor.rel = 'noopener noreferrer';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}

/** The emoji row of "react"; choosing the current reaction again removes it. */
function ReactButton({ message, onReact }: { message: MessageDto; onReact: MessageActionHandlers['onReact'] }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  return (
    <Popover opened={opened} onChange={setOpened} position="top" trapFocus withinPortal shadow="md">
      <Popover.Target>
        <ActionIcon
          variant="subtle"
          size="sm"
          color="gray"
          aria-label={t('chat.actions.react')}
          onClick={() => setOpened((o) => !o)}
          data-testid={`message-react-${message.id}`}
        >
          <IconMoodPlus size={16} aria-hidden />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown p={4}>
        <Group gap={2} role="group" aria-label={t('chat.actions.react')}>
          {REACTIONS.map((emoji) => {
            const current = message.reactionFromMe === emoji;
            return (
              <UnstyledButton
                key={emoji}
                className={classes.emojiButton}
                aria-label={
                  current ? t('chat.actions.removeReaction', { emoji }) : t('chat.actions.reactWith', { emoji })
                }
                aria-pressed={current}
                onClick={() => {
                  setOpened(false);
                  onReact(message, current ? '' : emoji);
                }}
              >
                {emoji}
              </UnstyledButton>
            );
          })}
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}

/** Per-bubble actions, shown on hover and on keyboard focus. */
export function MessageActions({
  message,
  canEdit,
  canDelete,
  handlers,
}: {
  message: MessageDto;
  canEdit: boolean;
  canDelete: boolean;
  handlers: MessageActionHandlers;
}) {
  const { t } = useTranslation();
  const text = messageText(message);
  const fileUrl = hasFile(message) ? message.mediaUrl : null;
  const copy = () => {
    void navigator.clipboard
      ?.writeText(text)
      .then(() => notifyInfo(t('chat.actions.copied')))
      .catch(() => undefined);
  };
  return (
    <div className={classes.actions}>
      <ReactButton message={message} onReact={handlers.onReact} />
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon
            variant="subtle"
            size="sm"
            color="gray"
            aria-label={t('chat.actions.menu')}
            data-testid={`message-menu-${message.id}`}
          >
            <IconChevronDown size={16} aria-hidden />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item
            leftSection={<IconArrowBackUp size={16} aria-hidden />}
            onClick={() => handlers.onReply(message)}
            data-testid="message-action-reply"
          >
            {t('chat.actions.reply')}
          </Menu.Item>
          {canForward(message) ? (
            <Menu.Item
              leftSection={<IconArrowForwardUp size={16} aria-hidden />}
              onClick={() => handlers.onForward(message)}
              data-testid="message-action-forward"
            >
              {t('chat.actions.forward')}
            </Menu.Item>
          ) : null}
          {canEdit ? (
            <Menu.Item
              leftSection={<IconPencil size={16} aria-hidden />}
              onClick={() => handlers.onEdit(message)}
              data-testid="message-action-edit"
            >
              {t('chat.actions.edit')}
            </Menu.Item>
          ) : null}
          {fileUrl ? (
            <Menu.Item
              leftSection={<IconDownload size={16} aria-hidden />}
              onClick={() => download(fileUrl, message.mediaName ?? message.body)}
              data-testid="message-action-download"
            >
              {t('chat.actions.download')}
            </Menu.Item>
          ) : null}
          {text.trim() && navigator.clipboard ? (
            <Menu.Item
              leftSection={<IconCopy size={16} aria-hidden />}
              onClick={copy}
              data-testid="message-action-copy"
            >
              {t('chat.actions.copy')}
            </Menu.Item>
          ) : null}
          {canDelete ? (
            <Menu.Item
              color="red"
              leftSection={<IconTrash size={16} aria-hidden />}
              onClick={() => handlers.onDelete(message)}
              data-testid="message-action-delete"
            >
              {t('chat.actions.delete')}
            </Menu.Item>
          ) : null}
        </Menu.Dropdown>
      </Menu>
    </div>
  );
}
