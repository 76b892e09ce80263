import { ActionIcon, Group, Paper, Stack, Text } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { MessageDto } from '@conversa/shared';
import { messageText } from '../../hooks/chat-format';
import { useQuoteAuthor } from './quote-author';

/** The banner above the input: the message being replied to or edited, Esc or the close button cancels. */
export function ContextBanner({
  message,
  mode,
  onCancel,
}: {
  message: MessageDto;
  mode: 'reply' | 'edit';
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const author = useQuoteAuthor(message);
  return (
    <Paper withBorder p={6} radius="sm" data-testid={`chat-${mode}-preview`}>
      <Group gap="xs" wrap="nowrap" justify="space-between">
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text size="xs" fw={600} c={mode === 'edit' ? 'blue' : 'teal'}>
            {mode === 'edit' ? t('chat.input.editing') : t('chat.input.replyingTo', { author })}
          </Text>
          <Text size="xs" lineClamp={1}>
            {messageText(message) || message.mediaName || t(`chat.mediaTypes.${message.mediaType}`)}
          </Text>
        </Stack>
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={mode === 'edit' ? t('chat.input.cancelEdit') : t('chat.input.cancelReply')}
          onClick={onCancel}
        >
          <IconX size={16} aria-hidden />
        </ActionIcon>
      </Group>
    </Paper>
  );
}
