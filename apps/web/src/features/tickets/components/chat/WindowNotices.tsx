import { ActionIcon, Alert, Button, Group, Text, Tooltip } from '@mantine/core';
import { IconClockOff, IconTemplate } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../../lib/errors';

/**
 * In place of the composer of a WhatsApp Cloud API ticket whose 24-hour window is closed: free-form messages would be
 * refused (ERR_WINDOW_CLOSED), only a template may start the conversation again.
 */
export function WindowClosedNotice({ onOpenTemplates }: { onOpenTemplates: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert
      m="xs"
      color="orange"
      variant="light"
      icon={<IconClockOff size={16} aria-hidden />}
      title={t('chat.window.closedTitle')}
      data-testid="chat-window-closed"
    >
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm">{t('chat.window.closedHelp')}</Text>
        <Button
          size="xs"
          leftSection={<IconTemplate size={14} aria-hidden />}
          onClick={onOpenTemplates}
          aria-haspopup="dialog"
          data-testid="chat-template-open"
        >
          {t('chat.templates.open')}
        </Button>
      </Group>
    </Alert>
  );
}

/** The server refused a send because the window is closed (409 ERR_WINDOW_CLOSED): its text and the way out. */
export function WindowRefusedAlert({ onOpenTemplates, onClose }: { onOpenTemplates: () => void; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert
      mx="xs"
      mt="xs"
      color="orange"
      variant="light"
      role="alert"
      withCloseButton
      closeButtonLabel={t('common.close')}
      onClose={onClose}
      data-testid="chat-window-refused"
    >
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm">{errorText('ERR_WINDOW_CLOSED')}</Text>
        <Button
          size="xs"
          variant="light"
          leftSection={<IconTemplate size={14} aria-hidden />}
          onClick={onOpenTemplates}
          aria-haspopup="dialog"
          data-testid="chat-window-refused-template"
        >
          {t('chat.templates.open')}
        </Button>
      </Group>
    </Alert>
  );
}

/** The composer's tool that opens the template picker (waba tickets, window open or forced open). */
export function TemplateTool({ onOpen }: { onOpen: () => void }) {
  const { t } = useTranslation();
  return (
    <Tooltip label={t('chat.templates.open')}>
      <ActionIcon
        variant="subtle"
        size="lg"
        aria-label={t('chat.templates.open')}
        aria-haspopup="dialog"
        onClick={onOpen}
        data-testid="chat-templates"
      >
        <IconTemplate size={20} aria-hidden />
      </ActionIcon>
    </Tooltip>
  );
}
