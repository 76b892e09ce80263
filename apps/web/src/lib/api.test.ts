import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../test/render';
import { ApiError, api, resetApiState } from './api';
import { errorText, readErrorCode } from './errors';
import { changeLanguage } from './i18n';
import { setNavigator } from './navigation';

vi.mock('./notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));
const { notifyError } = await import('./notify');

const fetchMock = vi.fn<typeof fetch>();
const headerOf = (call: number, name: string) => new Headers(fetchMock.mock.calls[call]?.[1]?.headers).get(name);

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
  vi.mocked(notifyError).mockClear();
  resetApiState();
  localStorage.setItem('token', 'old-token');
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('api client', () => {
  it('sends the bearer token, the cookie and JSON to /api', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ ok: true }));
    await expect(api.post('/users', { name: 'Ana' })).resolves.toEqual({ ok: true });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/users');
    expect(init?.credentials).toBe('include');
    expect(init?.body).toBe(JSON.stringify({ name: 'Ana' }));
    expect(headerOf(0, 'Authorization')).toBe('Bearer old-token');
  });

  it('sends a FormData as multipart (the browser writes its Content-Type)', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ importId: 'x' }, 202));
    const form = new FormData();
    form.append('file', new File(['a'], 'a.csv'));
    await expect(api.post('/contacts/upload', form)).resolves.toEqual({ importId: 'x' });
    expect(fetchMock.mock.calls[0]![1]?.body).toBe(form);
    expect(headerOf(0, 'Content-Type')).toBeNull();
  });

  it('on 403 refreshes the token once, stores it and replays the request', async () => {
    fetchMock
      .mockResolvedValueOnce(jsonResponse({ error: 'ERR_SESSION_EXPIRED' }, 403))
      .mockResolvedValueOnce(jsonResponse({ token: 'new-token' }))
      .mockResolvedValueOnce(jsonResponse({ users: [] }));
    await expect(api.get('/users/')).resolves.toEqual({ users: [] });
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(fetchMock.mock.calls[1]![0]).toBe('/api/auth/refresh_token');
    expect(fetchMock.mock.calls[1]![1]?.method).toBe('POST');
    expect(localStorage.getItem('token')).toBe('new-token');
    expect(headerOf(2, 'Authorization')).toBe('Bearer new-token');
  });

  it('replays only once: a second 403 is the error', async () => {
    fetchMock
      .mockResolvedValueOnce(jsonResponse({ error: 'ERR_NO_PERMISSION' }, 403))
      .mockResolvedValueOnce(jsonResponse({ token: 'new-token' }))
      .mockResolvedValueOnce(jsonResponse({ error: 'ERR_NO_PERMISSION' }, 403));
    const error = await api.get('/settings/').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('ERR_NO_PERMISSION');
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  describe('two requests that both get 403', () => {
    /** Answers per URL; each 403 is held until the test releases it, to order the arrivals. */
    function serveWithHeld403s() {
      const held: Record<string, () => void> = {};
      let refreshes = 0;
      fetchMock.mockImplementation((url, init) => {
        const auth = new Headers(init?.headers).get('Authorization');
        if (url === '/api/auth/refresh_token') {
          refreshes += 1;
          return Promise.resolve(jsonResponse({ token: `new-token-${refreshes}` }));
        }
        if (auth === 'Bearer old-token') {
          return new Promise((resolve) => {
            held[String(url)] = () => resolve(jsonResponse({ error: 'ERR_SESSION_EXPIRED' }, 403));
          });
        }
        return Promise.resolve(jsonResponse({ url, auth }));
      });
      return { release: (url: string) => held[url]!(), refreshes: () => refreshes };
    }

    it('arriving together share one refresh and both replay with the new token', async () => {
      const server = serveWithHeld403s();
      const a = api.get('/a');
      const b = api.get('/b');
      await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
      server.release('/api/a');
      server.release('/api/b');
      await expect(a).resolves.toEqual({ url: '/api/a', auth: 'Bearer new-token-1' });
      await expect(b).resolves.toEqual({ url: '/api/b', auth: 'Bearer new-token-1' });
      expect(server.refreshes()).toBe(1);
    });

    it('one arriving after the other refresh finished replays with that token instead of refreshing again', async () => {
      const server = serveWithHeld403s();
      const a = api.get('/a');
      const b = api.get('/b');
      await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
      server.release('/api/a');
      await expect(a).resolves.toEqual({ url: '/api/a', auth: 'Bearer new-token-1' });
      server.release('/api/b');
      await expect(b).resolves.toEqual({ url: '/api/b', auth: 'Bearer new-token-1' });
      expect(server.refreshes()).toBe(1);
      expect(localStorage.getItem('token')).toBe('new-token-1');
    });
  });

  it('on 401 clears the login but the language, shows the error and goes to /login after 2 s', async () => {
    vi.useFakeTimers();
    const navigate = vi.fn();
    setNavigator(navigate);
    for (const [key, value] of Object.entries({ username: 'Ana', profile: 'admin', userId: '7', language: 'en-us' })) {
      localStorage.setItem(key, value);
    }
    fetchMock.mockResolvedValueOnce(jsonResponse({ error: 'ERR_INVALID_TOKEN' }, 401));
    await expect(api.get('/users/')).rejects.toBeInstanceOf(ApiError);
    for (const key of ['token', 'username', 'profile', 'userId']) expect(localStorage.getItem(key)).toBeNull();
    expect(localStorage.getItem('language')).toBe('en-us');
    expect(notifyError).toHaveBeenCalledWith('Token inválido, redirecionando para o login');
    vi.advanceTimersByTime(1999);
    expect(navigate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(navigate).toHaveBeenCalledWith('/login');
  });

  it('a 401 to a request sent before the next login leaves the new session alone (no wipe, no toast, no redirect)', async () => {
    vi.useFakeTimers();
    const navigate = vi.fn();
    setNavigator(navigate);
    let answer: (response: Response) => void = () => undefined;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (answer = resolve)));
    const stale = api.get('/notifications').catch((e: unknown) => e);
    // The user logs out and another logs in while the old session's request is in flight.
    localStorage.setItem('token', 'new-token');
    answer(jsonResponse({ error: 'ERR_SESSION_EXPIRED' }, 401));
    expect(await stale).toBeInstanceOf(ApiError);
    expect(localStorage.getItem('token')).toBe('new-token');
    expect(notifyError).not.toHaveBeenCalled();
    vi.advanceTimersByTime(5000);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('a 401 to a request sent without a token (after a logout) starts no 401 flow', async () => {
    localStorage.removeItem('token');
    fetchMock.mockResolvedValueOnce(jsonResponse({ error: 'ERR_SESSION_EXPIRED' }, 401));
    await expect(api.get('/tenants/undefined')).rejects.toBeInstanceOf(ApiError);
    expect(notifyError).not.toHaveBeenCalled();
  });

  it('a user who logs in again within the 2 s of a 401 is not taken to /login', async () => {
    vi.useFakeTimers();
    const navigate = vi.fn();
    setNavigator(navigate);
    fetchMock.mockResolvedValueOnce(jsonResponse({ error: 'ERR_INVALID_TOKEN' }, 401));
    await expect(api.get('/users/')).rejects.toBeInstanceOf(ApiError);
    expect(localStorage.getItem('token')).toBeNull();
    vi.advanceTimersByTime(1000);
    localStorage.setItem('token', 'new-token');
    vi.advanceTimersByTime(1000);
    expect(navigate).not.toHaveBeenCalled();
    expect(localStorage.getItem('token')).toBe('new-token');
  });

  it('a 401 on the logout call does not start the 401 flow', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ error: 'ERR_INVALID_TOKEN' }, 401));
    await expect(api.post('/auth/logout/', {}, { skipUnauthorized: true })).rejects.toBeInstanceOf(ApiError);
    expect(localStorage.getItem('token')).toBe('old-token');
    expect(notifyError).not.toHaveBeenCalled();
  });

  it('gives up after 20 s', async () => {
    vi.useFakeTimers();
    fetchMock.mockImplementationOnce(
      (_url, init) =>
        new Promise((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        ),
    );
    const pending = api.get('/users/').catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(20_000);
    const error = (await pending) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toMatch(/demorou/);
  });
});

describe('error texts', () => {
  it('reads error, then msg, then message', () => {
    expect(readErrorCode({ error: 'A', msg: 'B', message: 'C' })).toBe('A');
    expect(readErrorCode({ msg: 'B', message: 'C' })).toBe('B');
    expect(readErrorCode({ message: 'C' })).toBe('C');
    expect(readErrorCode({})).toBeNull();
  });

  it('shows the catalogue text in the current language, the raw code when unknown, a generic text without one', async () => {
    expect(errorText('ERR_USER_LIMIT_USER_CREATION')).toBe('Limite de usuários atingido.');
    expect(errorText('something odd happened')).toBe('something odd happened');
    expect(errorText(null)).toBe('Ocorreu um erro não identificado.');
    await changeLanguage('en-us');
    expect(errorText('ERR_USER_LIMIT_USER_CREATION')).toBe('User limit reached.');
    await changeLanguage('pt');
  });

  it('an API error carries the translated text', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ error: 'ERR_LIMIT_MAX' }, 429));
    const error = (await api.post('/auth/login/', {}, { public: true }).catch((e: unknown) => e)) as ApiError;
    expect(error.message).toBe('Foram realizadas muitas tentativas de login. Tente novamente em 1 minuto.');
  });
});
