import {
  ActionIcon,
  Anchor,
  Avatar,
  Burger,
  Group,
  Menu,
  Text,
  ThemeIcon,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { IconChevronDown, IconLogout, IconMessages, IconMoon, IconSun, IconUserCog } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LanguageSelect } from '../../components/LanguageSelect';
import { useDarkMode } from '../../lib/preferences';
import { logout } from '../../lib/session';
import type { StoredSession } from '../../lib/storage';
import { NotificationBell } from './NotificationBell';

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join('');

export function Header({
  session,
  navOpened,
  onToggleNav,
}: {
  session: StoredSession;
  navOpened: boolean;
  onToggleNav: () => void;
}) {
  const { t } = useTranslation();
  const { isDark, setDark } = useDarkMode();
  const darkLabel = isDark ? t('shell.lightMode') : t('shell.darkMode');
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="sm" wrap="nowrap">
        <Burger opened={navOpened} onClick={onToggleNav} hiddenFrom="sm" size="sm" aria-label={t('shell.toggleMenu')} />
        <Anchor
          component={Link}
          to="/"
          underline="never"
          c="inherit"
          // Starts with the visible brand text, so speech input ("click Conversa") finds the link.
          aria-label={`${t('app.name')}: ${t('shell.home')}`}
        >
          <Group gap="xs" wrap="nowrap">
            <ThemeIcon size="lg" radius="md" aria-hidden>
              <IconMessages size={20} />
            </ThemeIcon>
            <Text fw={700} size="lg" visibleFrom="xs">
              {t('app.name')}
            </Text>
          </Group>
        </Anchor>
      </Group>
      <Group gap="sm" wrap="nowrap">
        <LanguageSelect w={200} size="sm" visibleFrom="sm" data-testid="language-select" />
        <NotificationBell />
        <Tooltip label={darkLabel}>
          <ActionIcon
            variant="default"
            size="lg"
            role="switch"
            aria-checked={isDark}
            aria-label={t('shell.darkMode')}
            data-testid="dark-mode-toggle"
            onClick={() => setDark(!isDark)}
          >
            {isDark ? <IconSun size={18} aria-hidden /> : <IconMoon size={18} aria-hidden />}
          </ActionIcon>
        </Tooltip>
        <Menu position="bottom-end" width={220} withinPortal>
          <Menu.Target>
            <UnstyledButton data-testid="user-menu" className="user-menu-button">
              {/* Named by hidden text, not aria-label: a label must contain the visible text (the avatar's initials
                  included), and the name must stay when the user's name is hidden on narrow screens. */}
              <span className="visually-hidden">{t('shell.userMenu', { name: session.username })}</span>
              <Group gap="xs" wrap="nowrap" aria-hidden>
                <Avatar radius="xl" size="sm" color="initials" name={session.username}>
                  {initials(session.username)}
                </Avatar>
                <Text size="sm" fw={500} maw={160} truncate visibleFrom="xs">
                  {session.username}
                </Text>
                <IconChevronDown size={14} aria-hidden />
              </Group>
            </UnstyledButton>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Label>{t(`profiles.${session.profile}`)}</Menu.Label>
            <Menu.Item component={Link} to="/preferencias" leftSection={<IconUserCog size={16} aria-hidden />}>
              {t('menu.preferencias')}
            </Menu.Item>
            <Menu.Divider />
            <Menu.Item
              color="red"
              leftSection={<IconLogout size={16} aria-hidden />}
              onClick={() => void logout({ clearToasts: true })}
              data-testid="logout-button"
            >
              {t('shell.logout')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
    </Group>
  );
}
