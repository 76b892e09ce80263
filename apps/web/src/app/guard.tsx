/**
 * The guard (product-spec §2): without a stored token every route but the public ones shows 'Necessário realizar
 * login' and goes to /login. A URL carrying a `tokenSetup` query parameter is let through.
 */
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import type { Profile } from '@conversa/shared';
import { NoAccess } from '../components/NoAccess';
import { notifyWarning } from '../lib/notify';
import { getToken, useStoredSession } from '../lib/storage';

let lastNoticeAt = 0;

function hasTokenSetup(search: string): boolean {
  return new URLSearchParams(search).has('tokenSetup') || new URLSearchParams(window.location.search).has('tokenSetup');
}

function RedirectToLogin() {
  const { t } = useTranslation();
  useEffect(() => {
    // One notice, even when several guarded renders (or StrictMode) redirect at once.
    if (Date.now() - lastNoticeAt < 1500) return;
    lastNoticeAt = Date.now();
    notifyWarning(t('guard.loginRequired'));
  }, [t]);
  return <Navigate to="/login" replace />;
}

/**
 * Checked on every navigation, not on storage changes: ending a session (logout, a 401) leads to /login by its own
 * path and timing (the 401 flow waits 2 s), without this notice.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const location = useLocation();
  if (!getToken() && !hasTokenSetup(location.search)) return <RedirectToLogin />;
  return <>{children}</>;
}

/**
 * The shell's root (product-spec §2): a superadmin goes to tenants, everyone else to contatos. Landing after login is
 * by profile instead (landingPath).
 */
export function ProfileRedirect() {
  const session = useStoredSession();
  return <Navigate to={session?.profile === 'superadmin' ? '/tenants' : '/contatos'} replace />;
}

export function RequireProfile({ profiles, children }: { profiles: readonly Profile[]; children: ReactNode }) {
  const session = useStoredSession();
  if (session && !profiles.includes(session.profile)) return <NoAccess />;
  return <>{children}</>;
}

/** A superadmin opening /home goes to /tenants. */
export function SuperadminToTenants({ children }: { children: ReactNode }) {
  const session = useStoredSession();
  if (session?.profile === 'superadmin') return <Navigate to="/tenants" replace />;
  return <>{children}</>;
}
