import { AppShell, Box } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Outlet } from 'react-router';
import { SkipLink } from '../../components/SkipLink';
import { getLastSession, useStoredSession } from '../../lib/storage';
import { Header } from './Header';
import { Navbar } from './Navbar';
import { useLiveSession } from './use-live-session';

export function AppShellLayout() {
  const stored = useStoredSession();
  // While a session ends (logout, the 401 flow's 2 s) the shell keeps showing the last user until it leaves.
  const session = stored ?? getLastSession();
  const [opened, { toggle, close }] = useDisclosure(false);
  useLiveSession(stored);
  // A token without a stored profile (tokenSetup links) gets the smallest menu.
  const view = session ?? { token: '', username: '', profile: 'user' as const, userId: 0, tenantId: null };

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 248, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="lg"
      data-testid="app-shell"
      data-profile={view.profile}
    >
      <SkipLink targetId="main-content" />
      <AppShell.Header>
        <Header session={view} navOpened={opened} onToggleNav={toggle} />
      </AppShell.Header>
      <AppShell.Navbar p="sm">
        <Navbar profile={view.profile} onNavigate={close} />
      </AppShell.Navbar>
      <AppShell.Main>
        <Box id="main-content" tabIndex={-1} maw={1280} mx="auto" style={{ outline: 'none' }}>
          <Outlet />
        </Box>
      </AppShell.Main>
    </AppShell>
  );
}
