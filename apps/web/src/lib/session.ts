/** Logging out (POST /auth/logout/, then the local end of the session) and landing after login (product-spec §2). */
import { notifications } from '@mantine/notifications';
import type { Profile } from '@conversa/shared';
import { api } from './api';
import { navigateTo } from './navigation';
import { endSession } from './session-events';
import { getSession } from './storage';

/** Route names of the spec, as paths: home-dashboard -> /home, atendimento -> /atendimento. */
export function landingPath(profile: Profile | null | undefined): string {
  switch (profile) {
    case 'superadmin':
      return '/tenants';
    case 'admin':
    case 'super':
      return '/home';
    default:
      return '/atendimento';
  }
}

/** The user's own logout also clears the toasts of the session; the invalid-token flow keeps its message. */
export async function logout({ clearToasts = false }: { clearToasts?: boolean } = {}): Promise<void> {
  if (clearToasts) notifications.clean();
  const session = getSession();
  try {
    // The reference client posts the login object; the server needs only userId. A 401 here must not loop.
    if (session)
      await api.post('/auth/logout/', { userId: session.userId }, { skipUnauthorized: true, background: true });
  } catch {
    // Logging out locally is what matters.
  } finally {
    endSession();
    navigateTo('/login');
  }
}
