import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CaptchaChallenge, LoginResponse, Profile } from '@conversa/shared';
import { resetApiState } from '../../../lib/api';
import { jsonResponse, renderRoutes } from '../../../test/render';
import { LoginPage } from './LoginPage';

const disabledCaptcha: CaptchaChallenge = {
  enabled: false,
  token: '',
  background: '',
  piece: '',
  width: 0,
  height: 0,
  pieceSize: 0,
  pieceY: 0,
};
const enabledCaptcha: CaptchaChallenge = {
  enabled: true,
  token: 'challenge-1',
  background: 'data:image/svg+xml,bg',
  piece: 'data:image/svg+xml,piece',
  width: 300,
  height: 150,
  pieceSize: 44,
  pieceY: 40,
};
const loginAs = (profile: Profile): LoginResponse => ({
  token: 'jwt-token',
  username: 'Ana',
  email: 'ana@example.com',
  profile,
  userId: 9,
  tenantId: 1,
  queues: [],
  blockWavoip: false,
  whatsappAllowed: [],
  configs: { isDark: false },
});

const routes = [
  { path: '/login', element: <LoginPage /> },
  { path: '/home', element: <p>dashboard</p> },
  { path: '/atendimento', element: <p>service screen</p> },
  { path: '/tenants', element: <p>tenants list</p> },
];

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

function serve(captcha: CaptchaChallenge, login: () => Response) {
  fetchMock.mockImplementation(async (url) => {
    if (String(url).endsWith('/auth/captcha')) return jsonResponse(captcha);
    if (String(url).endsWith('/auth/login/')) return login();
    return jsonResponse({}, 404);
  });
}

describe('login', () => {
  it.each([
    ['user', '/atendimento', 'service screen'],
    ['admin', '/home', 'dashboard'],
    ['superadmin', '/tenants', 'tenants list'],
  ] as const)('stores the login of a %s, sends the trimmed e-mail and lands on %s', async (profile, path, text) => {
    serve(disabledCaptcha, () => jsonResponse(loginAs(profile)));
    const { router } = renderRoutes(routes, '/login');
    await waitFor(() => expect(screen.getByTestId('captcha')).toHaveAttribute('data-state', 'disabled'));
    fireEvent.change(screen.getByTestId('login-email'), { target: { value: '  ana@example.com ' } });
    fireEvent.change(screen.getByTestId('login-password'), { target: { value: 'Secret#1' } });
    fireEvent.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(path);
    const loginCall = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/auth/login/'));
    expect(JSON.parse(String(loginCall?.[1]?.body))).toEqual({ email: 'ana@example.com', password: 'Secret#1' });
    expect(localStorage.getItem('token')).toBe('jwt-token');
    expect(localStorage.getItem('profile')).toBe(profile);
    expect(localStorage.getItem('userId')).toBe('9');
    expect(localStorage.getItem('username')).toBe('Ana');
  });

  it('refuses to submit before the captcha is answered, then sends { token, x }', async () => {
    serve(enabledCaptcha, () => jsonResponse(loginAs('user')));
    renderRoutes(routes, '/login');
    await waitFor(() => expect(screen.getByTestId('captcha')).toHaveAttribute('data-state', 'ready'));
    fireEvent.change(screen.getByTestId('login-email'), { target: { value: 'ana@example.com' } });
    fireEvent.change(screen.getByTestId('login-password'), { target: { value: 'Secret#1' } });
    fireEvent.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText('Por favor, valide o CAPTCHA antes de continuar.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/auth/login/'))).toBe(false);

    const slider = screen.getByTestId('captcha-slider');
    fireEvent.keyDown(slider, { key: 'PageUp' });
    fireEvent.keyDown(slider, { key: 'ArrowRight' });
    expect(screen.getByTestId('captcha')).toHaveAttribute('data-state', 'answered');
    fireEvent.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText('service screen')).toBeInTheDocument();
    const loginCall = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/auth/login/'));
    expect(JSON.parse(String(loginCall?.[1]?.body)).captcha).toEqual({ token: 'challenge-1', x: 11 });
  });

  it('loads a fresh challenge after a failed login', async () => {
    serve(enabledCaptcha, () => jsonResponse({ error: 'ERR_INVALID_CREDENTIALS' }, 401));
    renderRoutes(routes, '/login');
    await waitFor(() => expect(screen.getByTestId('captcha')).toHaveAttribute('data-state', 'ready'));
    fireEvent.change(screen.getByTestId('login-email'), { target: { value: 'ana@example.com' } });
    fireEvent.change(screen.getByTestId('login-password'), { target: { value: 'wrong' } });
    fireEvent.keyDown(screen.getByTestId('captcha-slider'), { key: 'End' });
    fireEvent.click(screen.getByTestId('login-submit'));
    await waitFor(() =>
      expect(fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/auth/captcha'))).toHaveLength(2),
    );
    await waitFor(() => expect(screen.getByTestId('captcha')).toHaveAttribute('data-state', 'ready'));
    expect(localStorage.getItem('token')).toBeNull();
  });
});
