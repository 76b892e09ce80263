import { StrictMode } from 'react';
import { fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LoginResponse } from '@conversa/shared';
import { resetApiState } from '../../../lib/api';
import { jsonResponse, Providers, requestBody } from '../../../test/render';
import { SignupConfirmPage } from './SignupConfirmPage';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));
const { notifySuccess } = await import('../../../lib/notify');

const TOKEN = 'a'.repeat(43);
const newAdmin: LoginResponse = {
  token: 'jwt-of-the-new-admin',
  username: 'Ana',
  email: 'ana@example.com',
  profile: 'admin',
  userId: 12,
  tenantId: 7,
  queues: [],
  blockWavoip: false,
  whatsappAllowed: [],
  configs: {},
};

const routes = [
  { path: '/signup/confirm/:token', element: <SignupConfirmPage /> },
  { path: '/home', element: <p>dashboard</p> },
  { path: '/signup', element: <p>signup form</p> },
  { path: '/login', element: <p>login form</p> },
];

// StrictMode at the root as in main.tsx (nested under the router it does not re-run mount effects): its double effect
// run must still post the single-use token only once.
function renderConfirm() {
  const router = createMemoryRouter(routes, { initialEntries: [`/signup/confirm/${TOKEN}`] });
  render(
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
  return { router };
}

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.mocked(notifySuccess).mockClear();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

const confirmCalls = () => fetchMock.mock.calls.filter(([url]) => String(url) === '/api/signup/confirm');

describe('sign-up confirmation', () => {
  it('posts the token once and lands the new admin on /home like a login', async () => {
    fetchMock.mockResolvedValue(jsonResponse(newAdmin));
    const { router } = renderConfirm();
    expect(screen.getByTestId('signup-confirming')).toBeInTheDocument();
    expect(await screen.findByText('dashboard')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/home');
    expect(confirmCalls()).toHaveLength(1);
    expect(confirmCalls()[0]?.[1]?.method).toBe('POST');
    expect(requestBody(fetchMock, 0)).toEqual({ token: TOKEN });
    expect(localStorage.getItem('token')).toBe('jwt-of-the-new-admin');
    expect(localStorage.getItem('profile')).toBe('admin');
    expect(localStorage.getItem('userId')).toBe('12');
    expect(localStorage.getItem('tenantId')).toBe('7');
    expect(notifySuccess).toHaveBeenCalledWith('Login realizado com sucesso!');
  });

  it('shows a used or expired link as final, with a start-over action and no retry', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ error: 'ERR_SIGNUP_TOKEN_INVALID' }, 400));
    const { router } = renderConfirm();
    expect(await screen.findByRole('alert')).toHaveTextContent('Link de confirmação de cadastro inválido ou expirado.');
    expect(screen.queryByTestId('signup-confirm-retry')).not.toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
    fireEvent.click(screen.getByTestId('signup-start-over'));
    expect(await screen.findByText('signup form')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/signup');
    expect(confirmCalls()).toHaveLength(1);
  });

  it.each([
    ['a network failure', () => Promise.reject(new TypeError('Failed to fetch')), 'Sem conexão com o servidor.'],
    [
      'a 503',
      () => Promise.resolve(jsonResponse({ error: 'ERR_SERVICE_UNAVAILABLE' }, 503)),
      'Serviço indisponível. Tente novamente em instantes.',
    ],
  ])('offers a retry after %s that posts the token again', async (_, failure, text) => {
    fetchMock.mockImplementationOnce(failure).mockResolvedValue(jsonResponse(newAdmin));
    const { router } = renderConfirm();
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
    expect(screen.queryByTestId('signup-start-over')).not.toBeInTheDocument();
    expect(confirmCalls()).toHaveLength(1);
    fireEvent.click(screen.getByTestId('signup-confirm-retry'));
    expect(await screen.findByText('dashboard')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/home');
    expect(confirmCalls()).toHaveLength(2);
    expect(requestBody(fetchMock, 1)).toEqual({ token: TOKEN });
    expect(localStorage.getItem('token')).toBe('jwt-of-the-new-admin');
  });
});
