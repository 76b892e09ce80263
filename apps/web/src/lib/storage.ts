/**
 * Local storage, with the exact key names of product-spec §3: token, username, profile, userId, language. The token is
 * stored as the raw JWT string; `usuario` (the whole login object) and `tenantId` are kept for compatibility.
 */
import { useSyncExternalStore } from 'react';
import { PROFILES, type LoginResponse, type Profile } from '@conversa/shared';

export const STORAGE_KEYS = {
  token: 'token',
  username: 'username',
  profile: 'profile',
  userId: 'userId',
  language: 'language',
  tenantId: 'tenantId',
  usuario: 'usuario',
} as const;

/** Keys cleared on logout and on a 401; `language` survives. */
const SESSION_KEYS = [
  STORAGE_KEYS.token,
  STORAGE_KEYS.username,
  STORAGE_KEYS.profile,
  STORAGE_KEYS.userId,
  STORAGE_KEYS.tenantId,
  STORAGE_KEYS.usuario,
];

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Private mode or quota: the session then lives only in memory of this page.
  }
}

const sessionListeners = new Set<() => void>();
let sessionVersion = 0;

function sessionChanged(): void {
  sessionVersion += 1;
  for (const listener of sessionListeners) listener();
}

/** For useSyncExternalStore: changes whenever the stored login changes (here or in another tab). */
export function subscribeSession(listener: () => void): () => void {
  sessionListeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || (SESSION_KEYS as string[]).includes(event.key)) sessionChanged();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    sessionListeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export const getSessionVersion = (): number => sessionVersion;

/** Tolerates a JSON-encoded token written by the reference client (client-contract §1). */
export function getToken(): string | null {
  const raw = read(STORAGE_KEYS.token);
  if (!raw || raw === 'null' || raw === 'undefined') return null;
  if (raw.startsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(raw);
      return typeof parsed === 'string' ? parsed : null;
    } catch {
      return null;
    }
  }
  return raw;
}

export const setToken = (token: string): void => write(STORAGE_KEYS.token, token);

export interface StoredSession {
  token: string;
  username: string;
  profile: Profile;
  userId: number;
  tenantId: number | null;
}

const isProfile = (value: string | null): value is Profile => PROFILES.includes(value as Profile);

let lastSession: StoredSession | null = null;

/** The most recent session seen, also after it ended (see AppShellLayout). */
export const getLastSession = (): StoredSession | null => lastSession;

export function getSession(): StoredSession | null {
  const session = readSession();
  if (session) lastSession = session;
  return session;
}

function readSession(): StoredSession | null {
  const token = getToken();
  const profile = read(STORAGE_KEYS.profile);
  const userId = Number(read(STORAGE_KEYS.userId));
  if (!token || !isProfile(profile) || !Number.isFinite(userId) || userId <= 0) return null;
  const tenantId = Number(read(STORAGE_KEYS.tenantId));
  return {
    token,
    username: read(STORAGE_KEYS.username) ?? '',
    profile,
    userId,
    tenantId: Number.isFinite(tenantId) && tenantId > 0 ? tenantId : null,
  };
}

export function getStoredLogin(): LoginResponse | null {
  const raw = read(STORAGE_KEYS.usuario);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as LoginResponse;
  } catch {
    return null;
  }
}

export function storeLogin(login: LoginResponse): void {
  write(STORAGE_KEYS.token, login.token);
  write(STORAGE_KEYS.username, login.username);
  write(STORAGE_KEYS.profile, login.profile);
  write(STORAGE_KEYS.userId, String(login.userId));
  write(STORAGE_KEYS.tenantId, String(login.tenantId));
  write(STORAGE_KEYS.usuario, JSON.stringify(login));
  sessionChanged();
}

/** Keeps the stored login object in step after the user edits their own name, e-mail or configs. */
export function updateStoredLogin(patch: Partial<LoginResponse>): void {
  const current = getStoredLogin();
  if (patch.username !== undefined) write(STORAGE_KEYS.username, patch.username);
  if (current) write(STORAGE_KEYS.usuario, JSON.stringify({ ...current, ...patch }));
  sessionChanged();
}

export function clearSession(): void {
  try {
    for (const key of SESSION_KEYS) window.localStorage.removeItem(key);
  } catch {
    // nothing stored
  }
  sessionChanged();
}

export const getStoredLanguage = (): string | null => read(STORAGE_KEYS.language);
export const setStoredLanguage = (language: string): void => write(STORAGE_KEYS.language, language);

/** The stored session, re-read whenever it changes. */
export function useStoredSession(): StoredSession | null {
  useSyncExternalStore(subscribeSession, getSessionVersion, getSessionVersion);
  return getSession();
}
