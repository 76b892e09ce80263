import { NavLink, ScrollArea, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { Profile } from '@conversa/shared';
import { menuFor } from '../menus';

/**
 * Real anchors (`href="#/..."`): a ctrl/cmd-click opens the screen in a new tab, a plain click navigates in place.
 */
export function Navbar({ profile, onNavigate }: { profile: Profile; onNavigate: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <ScrollArea component="nav" aria-label={t('shell.mainMenu')} type="scroll">
      <Stack gap={4}>
        {menuFor(profile).map((entry) => {
          const active = pathname === entry.path || pathname.startsWith(`${entry.path}/`);
          const Icon = entry.icon;
          return (
            <NavLink
              key={entry.name}
              component={Link}
              to={entry.path}
              label={t(entry.labelKey)}
              leftSection={<Icon size={20} aria-hidden />}
              active={active}
              aria-current={active ? 'page' : undefined}
              data-testid={`nav-${entry.name}`}
              onClick={(event) => {
                if (!event.metaKey && !event.ctrlKey && !event.shiftKey) onNavigate();
              }}
              variant="light"
              style={{ borderRadius: 'var(--mantine-radius-md)' }}
            />
          );
        })}
      </Stack>
    </ScrollArea>
  );
}
