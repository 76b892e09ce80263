/**
 * The API client (ARCHITECTURE §8, client-contract §1): fetch with a Bearer token from local storage, a 20 s timeout,
 * the refresh cookie (`credentials: 'include'`), one refresh-and-replay on 403, and the 401 flow (clear the login,
 * toast, go to /login after 2 s) for every call but logout and the public ones.
 */
import { API_TIMEOUT_MS, LOGOUT_REDIRECT_MS, refreshResponseSchema } from '@conversa/shared';
import { ApiError } from './api-error';
import { readErrorCode } from './errors';
import { i18next } from './i18n';
import { loadingStore } from './loading';
import { navigateTo } from './navigation';
import { notifyError } from './notify';
import { endSession } from './session-events';
import { getToken, setToken } from './storage';

export { ApiError, describeError } from './api-error';

export const API_BASE = (import.meta.env.VITE_API_URL ?? '/api').replace(/\/$/, '');

export type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON-encoded, except a FormData, which goes as multipart/form-data. */
  body?: unknown;
  query?: Query;
  signal?: AbortSignal;
  /** Public calls (login, captcha, sign-up, plans, password reset): no token, no refresh, no 401 flow. */
  public?: boolean;
  /** The logout call: a 401 must not start the 401 flow. */
  skipUnauthorized?: boolean;
  /** Background calls do not count for the global loading overlay. */
  background?: boolean;
  timeoutMs?: number;
}

const REFRESH_PATH = '/auth/refresh_token';

export function buildUrl(path: string, query?: Query): string {
  const url = `${API_BASE}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.append(key, String(value));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

class TimeoutError extends Error {}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs ?? API_TIMEOUT_MS);
  const abort = () => controller.abort();
  options.signal?.addEventListener('abort', abort);
  const headers: Record<string, string> = { Accept: 'application/json' };
  const hasBody = options.body !== undefined;
  // Multipart bodies (file uploads) carry their own boundary in the Content-Type the browser writes.
  const isForm = options.body instanceof FormData;
  if (hasBody && !isForm) headers['Content-Type'] = 'application/json';
  const token = options.public ? null : getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    return await fetch(buildUrl(path, options.query), {
      method: options.method ?? 'GET',
      headers,
      body: isForm ? (options.body as FormData) : hasBody ? JSON.stringify(options.body) : undefined,
      credentials: 'include',
      signal: controller.signal,
    });
  } catch (error) {
    if (timedOut) throw new TimeoutError();
    throw error;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', abort);
  }
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

let refreshing: Promise<string | null> | null = null;

/** POST /auth/refresh_token (cookie `jrt`), shared by concurrent callers; stores and returns the new token. */
export function refreshToken(): Promise<string | null> {
  refreshing ??= (async () => {
    try {
      const response = await send(REFRESH_PATH, { method: 'POST', public: true });
      if (!response.ok) return null;
      const parsed = refreshResponseSchema.safeParse(await readBody(response));
      if (!parsed.success) return null;
      setToken(parsed.data.token);
      return parsed.data.token;
    } catch {
      return null;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

function tokenExpiresAt(token: string): number | null {
  try {
    const payload = token.split('.')[1];
    if (!payload) return null;
    const json = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown };
    return typeof json.exp === 'number' ? json.exp * 1000 : null;
  } catch {
    return null;
  }
}

/** The stored token, refreshed first when it is about to expire (used by the socket handshake). */
export async function getFreshToken(): Promise<string | null> {
  const token = getToken();
  if (!token) return null;
  const expiresAt = tokenExpiresAt(token);
  if (expiresAt !== null && expiresAt - Date.now() < 30_000) return (await refreshToken()) ?? token;
  return token;
}

let redirectTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * 401: wipe the login (language stays), show the message, go to /login after 2 s. Repeated 401s share one redirect;
 * a user who logged in again within the 2 s stays where the new login took them.
 */
export function handleUnauthorized(message: string): void {
  endSession();
  if (redirectTimer !== undefined) return;
  notifyError(message);
  redirectTimer = setTimeout(() => {
    redirectTimer = undefined;
    if (!getToken()) navigateTo('/login');
  }, LOGOUT_REDIRECT_MS);
}

/**
 * Whether a refusal of the session concerns the current one: the request carried the token that is still stored. A
 * request sent after a logout (no token) or before the login that followed it (another token) answers 401 for a
 * session that is already gone; ending the new one for it logged users out right after they logged in.
 */
const concernsCurrentSession = (sentToken: string | null): boolean => sentToken !== null && getToken() === sentToken;

/** For tests. */
export function resetApiState(): void {
  if (redirectTimer !== undefined) clearTimeout(redirectTimer);
  redirectTimer = undefined;
  refreshing = null;
}

export async function apiRequest<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  const tracked = !options.background;
  if (tracked) loadingStore.requestStarted();
  let sentToken = options.public ? null : getToken();
  try {
    let response = await send(path, options);
    if (response.status === 403 && !options.public) {
      const firstBody = await readBody(response);
      // A refresh that finished while this request was in flight already holds the answer: a second refresh would
      // rotate the cookie again under the other requests' feet.
      const stored = getToken();
      const token = stored && stored !== sentToken ? stored : await refreshToken();
      if (token) {
        sentToken = token;
        response = await send(path, options);
      } else if (readErrorCode(firstBody) === 'ERR_SESSION_EXPIRED') {
        const error = new ApiError(401, 'ERR_SESSION_EXPIRED', firstBody);
        error.notified = true;
        if (concernsCurrentSession(sentToken)) handleUnauthorized(i18next.t('session.expired'));
        throw error;
      } else {
        throw new ApiError(403, readErrorCode(firstBody), firstBody);
      }
    }
    const body = await readBody(response);
    if (!response.ok) throw new ApiError(response.status, readErrorCode(body), body);
    return body as T;
  } catch (error) {
    throw handleFailure(error, options, sentToken);
  } finally {
    if (tracked) loadingStore.requestEnded();
  }
}

function handleFailure(error: unknown, options: RequestOptions, sentToken: string | null): unknown {
  if (error instanceof ApiError) {
    if (error.notified) return error;
    if (error.status === 401 && !options.public && !options.skipUnauthorized) {
      // A stale session's refusal is no news: silent, and the current session goes on.
      error.notified = true;
      if (concernsCurrentSession(sentToken)) handleUnauthorized(error.message);
    } else if (error.status >= 500) {
      error.notified = true;
      notifyError(error.message);
    }
    return error;
  }
  if (error instanceof TimeoutError) {
    const timeout = new ApiError(0, null, null);
    timeout.message = i18next.t('feedback.timeout');
    return timeout;
  }
  if (error instanceof DOMException && error.name === 'AbortError') return error;
  const network = new ApiError(0, null, null);
  network.message = i18next.t('feedback.network');
  return network;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  delete: <T>(path: string, options?: Omit<RequestOptions, 'method'>) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};
