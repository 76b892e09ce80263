/**
 * Page behaviour of product-spec §2: scroll to top on navigation, reload after 7200 s idle, reload when a new build is
 * served (version.json checked on focus and every 5 minutes), and the service worker for web push.
 */
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { IDLE_RELOAD_SECONDS } from '@conversa/shared';

export const VERSION_CHECK_INTERVAL_MS = 5 * 60 * 1000;
const ACTIVITY_EVENTS = ['click', 'mousemove', 'keydown'] as const;

export function useScrollToTop(): void {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
  }, [pathname]);
}

export function useIdleReload(
  seconds = IDLE_RELOAD_SECONDS,
  reload: () => void = () => window.location.reload(),
): void {
  useEffect(() => {
    let timer = setTimeout(reload, seconds * 1000);
    const reset = () => {
      clearTimeout(timer);
      timer = setTimeout(reload, seconds * 1000);
    };
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, reset, { passive: true });
    return () => {
      clearTimeout(timer);
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, reset);
    };
  }, [seconds, reload]);
}

export async function fetchServedVersion(): Promise<string | null> {
  try {
    const response = await fetch(`${import.meta.env.BASE_URL}version.json`, { cache: 'no-store' });
    if (!response.ok) return null;
    const body = (await response.json()) as { version?: unknown };
    return typeof body.version === 'string' ? body.version : null;
  } catch {
    return null;
  }
}

export function useNewVersionReload(enabled = import.meta.env.PROD): void {
  useEffect(() => {
    if (!enabled) return;
    let checking = false;
    const check = async () => {
      if (checking) return;
      checking = true;
      const served = await fetchServedVersion();
      checking = false;
      if (served && served !== __APP_VERSION__) window.location.reload();
    };
    const onFocus = () => void check();
    window.addEventListener('focus', onFocus);
    const interval = setInterval(() => void check(), VERSION_CHECK_INTERVAL_MS);
    return () => {
      window.removeEventListener('focus', onFocus);
      clearInterval(interval);
    };
  }, [enabled]);
}

export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  window.addEventListener('load', () => {
    navigator.serviceWorker.register(`${import.meta.env.BASE_URL}sw.js`).catch(() => undefined);
  });
}
