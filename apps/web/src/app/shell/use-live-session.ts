/**
 * What the shell keeps running for a logged-in user: the socket with its cache sync and the session's feature handlers
 * (../realtime-handlers.ts), and the tenant check — a tenant whose status is not active means a warning and a logout
 * (product-spec §6), re-checked on every screen change.
 */
import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useCurrentTenant } from '../../lib/current-tenant';
import { notifyWarning } from '../../lib/notify';
import { logout } from '../../lib/session';
import { onSessionEnd } from '../../lib/session-events';
import { connectSocket, disconnectSocket } from '../../lib/socket';
import type { StoredSession } from '../../lib/storage';
import { startLiveSync } from '../realtime-handlers';

const TENANT_RECHECK_MS = 30_000;

export function useLiveSession(session: StoredSession | null): void {
  const queryClient = useQueryClient();
  const tenantId = session?.tenantId ?? null;

  useEffect(() => {
    if (tenantId === null) return;
    const socket = connectSocket(tenantId);
    const stop = startLiveSync(socket, queryClient, tenantId);
    return () => stop();
  }, [tenantId, queryClient]);

  useEffect(
    () =>
      onSessionEnd(() => {
        disconnectSocket();
        queryClient.clear();
      }),
    [queryClient],
  );

  useBlockedTenantLogout(Boolean(session));
}

function useBlockedTenantLogout(enabled: boolean): void {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const tenant = useCurrentTenant(enabled);
  const { refetch, dataUpdatedAt } = tenant;
  const loggingOut = useRef(false);

  useEffect(() => {
    if (enabled && Date.now() - dataUpdatedAt > TENANT_RECHECK_MS) void refetch();
    // Only a screen change re-reads the tenant.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pathname]);

  const status = tenant.data?.status;
  useEffect(() => {
    if (!status || status === 'active' || loggingOut.current) return;
    loggingOut.current = true;
    notifyWarning(t('session.tenantInactive'));
    void logout();
  }, [status, t]);
}
