import { Badge, Group, Stack, Text } from '@mantine/core';
import { IconCornerDownRight, IconList, IconMessageOff, IconTemplate } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { MessageDto } from '@conversa/shared';
import { messageText } from '../../hooks/chat-format';
import { INTERACTIVE_TYPES, interactiveView } from '../../hooks/official-messages';
import classes from './official.module.css';
import { RichText } from './MessageContent';

function TemplateMessage({ message }: { message: MessageDto }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2} data-testid={`message-template-${message.id}`}>
      <Group gap={4} c="dimmed">
        <IconTemplate size={14} aria-hidden />
        <Text size="xs" fw={600}>
          {t('chat.official.template')}
        </Text>
      </Group>
      <RichText text={messageText(message)} deleted={message.isDeleted} />
    </Stack>
  );
}

function InteractiveMessage({ message }: { message: MessageDto }) {
  const { t } = useTranslation();
  const { text, sections, listButton: button } = interactiveView(message);
  return (
    <Stack gap={4} data-testid={`message-interactive-${message.id}`}>
      {text ? <RichText text={text} deleted={message.isDeleted} /> : null}
      {button ? (
        <Group gap={4} c="dimmed">
          <IconList size={14} aria-hidden />
          <Text size="xs">{button}</Text>
        </Group>
      ) : null}
      {sections.map((section, index) => (
        <Stack key={index} gap={2}>
          {section.title ? (
            <Text size="xs" fw={600} c="dimmed">
              {section.title}
            </Text>
          ) : null}
          <Group gap={4} role="list" aria-label={section.title ?? t('chat.official.options')}>
            {section.options.map((option, position) => (
              <Badge key={position} role="listitem" variant="outline" color="teal" tt="none" radius="xl">
                {option}
              </Badge>
            ))}
          </Group>
        </Stack>
      ))}
    </Stack>
  );
}

function ButtonReply({ message }: { message: MessageDto }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2} className={classes.replyMark} data-testid={`message-choice-${message.id}`}>
      <Group gap={4} c="dimmed">
        <IconCornerDownRight size={14} aria-hidden />
        <Text size="xs" fw={600}>
          {t('chat.official.choice')}
        </Text>
      </Group>
      <Text size="sm" fw={500}>
        {messageText(message)}
      </Text>
    </Stack>
  );
}

function Unsupported({ message }: { message: MessageDto }) {
  const { t } = useTranslation();
  const detail = messageText(message).trim();
  return (
    <Group gap={6} wrap="nowrap" c="dimmed" data-testid={`message-unsupported-${message.id}`}>
      <IconMessageOff size={16} aria-hidden />
      <Text size="sm" fs="italic">
        {t('chat.official.unsupported')}
        {detail ? ` (${detail})` : ''}
      </Text>
    </Group>
  );
}

/** The bubble content of the official channels' message kinds (isOfficialKind); null for every other kind. */
export function OfficialContent({ message }: { message: MessageDto }) {
  if (message.mediaType === 'templates') return <TemplateMessage message={message} />;
  if (INTERACTIVE_TYPES.includes(message.mediaType)) return <InteractiveMessage message={message} />;
  if (message.mediaType === 'button_reply') return <ButtonReply message={message} />;
  if (message.mediaType === 'unsupported') return <Unsupported message={message} />;
  return null;
}
