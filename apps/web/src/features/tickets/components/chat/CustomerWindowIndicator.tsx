import { Group, Text } from '@mantine/core';
import { IconClockCheck, IconClockExclamation, IconClockOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { dateTimeOf } from '../../hooks/chat-format';
import { remainingParts, type CustomerWindow } from '../../hooks/customer-window';
import classes from './official.module.css';

function TimeLeft({ ms }: { ms: number }) {
  const { t } = useTranslation();
  const { hours, minutes } = remainingParts(ms);
  if (hours > 0) return <>{t('chat.window.leftHours', { hours, minutes })}</>;
  if (minutes > 0) return <>{t('chat.window.leftMinutes', { minutes })}</>;
  return <>{t('chat.window.leftUnderMinute')}</>;
}

/**
 * The 24-hour customer-service window of an official channel's ticket: open until when (and the time left), or
 * closed. The state is said in words (not colour alone) and announced when it changes; the time left is not.
 */
export function CustomerWindowIndicator({ window }: { window: CustomerWindow }) {
  const { t } = useTranslation();
  const state = !window.open ? 'closed' : window.expiring ? 'expiring' : 'open';
  const pages = window.channel !== 'waba';
  const Icon = state === 'closed' ? IconClockOff : state === 'expiring' ? IconClockExclamation : IconClockCheck;
  // Plain colour names: the theme resolves their text shade to a readable one (WCAG AA, app/theme.ts).
  const color = state === 'closed' ? 'red' : state === 'expiring' ? 'orange' : 'teal';
  return (
    <Group gap={6} wrap="wrap" className={classes.windowBar} data-testid="chat-window" data-state={state}>
      <Icon size={16} aria-hidden color={`var(--mantine-color-${color}-text)`} />
      <Text size="xs" fw={600} c={color} role="status" data-testid="chat-window-state">
        {window.open && window.until !== null
          ? t('chat.window.openUntil', { date: dateTimeOf(new Date(window.until).toISOString()) })
          : t('chat.window.closed')}
      </Text>
      {window.open ? (
        <Text size="xs" c={state === 'expiring' ? 'orange' : 'dimmed'} data-testid="chat-window-left">
          · <TimeLeft ms={window.left} />
        </Text>
      ) : window.until === null ? (
        <Text size="xs" c="dimmed">
          · {t('chat.window.neverWrote')}
        </Text>
      ) : null}
      {pages ? (
        <Text size="xs" c="dimmed" data-testid="chat-window-tag">
          {window.open ? t('chat.window.humanAgentLater') : t('chat.window.humanAgent')}
        </Text>
      ) : null}
    </Group>
  );
}
