import { ActionIcon, Menu, Tooltip } from '@mantine/core';
import { IconAt, IconSpeakerphone, IconVolumeOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

interface GroupMentionMenuProps {
  /** Nothing typed yet: the entries say so and stay disabled. */
  empty: boolean;
  sending: boolean;
  onSend: (mode: 'all' | 'ghost') => void;
}

/** The group input's mention menu: send the typed text mentioning everyone, visibly or silently. */
export function GroupMentionMenu({ empty, sending, onSend }: GroupMentionMenuProps) {
  const { t } = useTranslation();
  return (
    <Menu position="top-start" withinPortal>
      <Menu.Target>
        <Tooltip label={t('chat.mentions.menu')}>
          <ActionIcon
            variant="subtle"
            size="lg"
            aria-label={t('chat.mentions.menu')}
            loading={sending}
            data-testid="chat-mention-menu"
          >
            <IconAt size={20} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        {empty ? <Menu.Label>{t('chat.mentions.typeFirst')}</Menu.Label> : null}
        <Menu.Item
          leftSection={<IconSpeakerphone size={16} aria-hidden />}
          disabled={empty || sending}
          onClick={() => onSend('all')}
          data-testid="chat-mention-all"
        >
          {t('chat.mentions.all')}
        </Menu.Item>
        <Menu.Item
          leftSection={<IconVolumeOff size={16} aria-hidden />}
          disabled={empty || sending}
          onClick={() => onSend('ghost')}
          data-testid="chat-mention-ghost"
        >
          {t('chat.mentions.ghost')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
