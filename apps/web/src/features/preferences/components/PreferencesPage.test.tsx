import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserDto } from '@conversa/shared';
import { resetApiState } from '../../../lib/api';
import { jsonResponse, renderWithProviders, typeInto } from '../../../test/render';
import { PreferencesPage } from './PreferencesPage';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));
const { notifyError, notifySuccess } = await import('../../../lib/notify');

const me: UserDto = {
  id: 9,
  name: 'Ana',
  email: 'ana@example.com',
  profile: 'admin',
  tenantId: 1,
  isOnline: true,
  blockWavoip: false,
  queues: [],
  whatsappAllowed: [],
  configs: {},
  createdAt: '2025-01-02T10:00:00.000Z',
  updatedAt: '2025-01-02T10:00:00.000Z',
};
const CURRENT_LABEL = 'Senha atual';
const WRONG_CURRENT = 'Senha atual incorreta.';

const fetchMock = vi.fn<typeof fetch>();
let putAnswer: (body: Record<string, unknown>) => Response;

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.mocked(notifyError).mockClear();
  vi.mocked(notifySuccess).mockClear();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'old-jwt');
  localStorage.setItem('profile', 'admin');
  localStorage.setItem('userId', '9');
  localStorage.setItem('username', 'Ana');
  putAnswer = (body) => jsonResponse({ ...me, ...body, updatedAt: '2025-01-03T10:00:00.000Z' });
  fetchMock.mockImplementation(async (url, init) => {
    if (String(url) !== '/api/users/9') return jsonResponse({}, 404);
    if (init?.method === 'PUT') return putAnswer(JSON.parse(String(init.body)) as Record<string, unknown>);
    return jsonResponse(me);
  });
});
afterEach(() => vi.unstubAllGlobals());

const puts = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'PUT');
const putBody = (index = 0) => JSON.parse(String(puts()[index]?.[1]?.body)) as Record<string, unknown>;

async function renderForm() {
  renderWithProviders(<PreferencesPage />);
  await waitFor(() => expect(screen.getByTestId('preferences-name')).toHaveValue('Ana'));
}

describe('own profile form', () => {
  it('saves a name-only change without asking for or sending the current password', async () => {
    await renderForm();
    typeInto('preferences-name', '  Ana Souza ');
    typeInto('preferences-email', 'ANA@example.com ');
    expect(screen.queryByTestId('preferences-current-password')).not.toBeInTheDocument();
    fireEvent.click(screen.getByTestId('preferences-submit'));
    await new Promise((r) => setTimeout(r, 500));
    console.log(
      'DBG',
      JSON.stringify(fetchMock.mock.calls),
      vi.mocked(notifyError).mock.calls,
      document.querySelectorAll('[aria-invalid=true]').length,
      document.querySelector('form')?.textContent,
    );
    await waitFor(() => expect(notifySuccess).toHaveBeenCalledWith('Dados atualizados!'));
    expect(puts()).toHaveLength(1);
    expect(putBody()).toEqual({ name: 'Ana Souza', email: 'ANA@example.com' });
    expect(localStorage.getItem('token')).toBe('old-jwt');
    expect(localStorage.getItem('username')).toBe('Ana Souza');
  });

  it('asks for the current password with a new password, sends it, and stores the renewed token', async () => {
    putAnswer = () => jsonResponse({ ...me, updatedAt: '2025-01-03T10:00:00.000Z', token: 'renewed-jwt' });
    await renderForm();
    typeInto('preferences-password', 'novaSenha#1');
    typeInto('preferences-confirm', 'novaSenha#1');
    expect(screen.getByTestId('preferences-current-password')).toBeRequired();
    fireEvent.click(screen.getByTestId('preferences-submit'));
    expect(await screen.findByText(`${CURRENT_LABEL} é obrigatório`)).toBeInTheDocument();
    expect(puts()).toHaveLength(0);

    typeInto('preferences-current-password', 'velhaSenha1');
    fireEvent.click(screen.getByTestId('preferences-submit'));
    await waitFor(() => expect(notifySuccess).toHaveBeenCalledWith('Dados atualizados!'));
    expect(putBody()).toEqual({
      name: 'Ana',
      email: 'ana@example.com',
      password: 'novaSenha#1',
      currentPassword: 'velhaSenha1',
    });
    expect(localStorage.getItem('token')).toBe('renewed-jwt');
    await waitFor(() => expect(screen.getByTestId('preferences-password')).toHaveValue(''));
    expect(screen.queryByTestId('preferences-current-password')).not.toBeInTheDocument();
  });

  it('asks for the current password with a new e-mail and sends it without a password', async () => {
    await renderForm();
    typeInto('preferences-email', 'ana.souza@example.com');
    typeInto('preferences-current-password', 'velhaSenha1');
    fireEvent.click(screen.getByTestId('preferences-submit'));
    await waitFor(() => expect(notifySuccess).toHaveBeenCalled());
    expect(putBody()).toEqual({ name: 'Ana', email: 'ana.souza@example.com', currentPassword: 'velhaSenha1' });
    expect(localStorage.getItem('token')).toBe('old-jwt');
  });

  it('shows ERR_CURRENT_PASSWORD_INVALID on the field and in a toast, keeping what was typed', async () => {
    putAnswer = () => jsonResponse({ error: 'ERR_CURRENT_PASSWORD_INVALID' }, 400);
    await renderForm();
    typeInto('preferences-email', 'ana.souza@example.com');
    typeInto('preferences-current-password', 'wrong');
    fireEvent.click(screen.getByTestId('preferences-submit'));
    await waitFor(() => expect(notifyError).toHaveBeenCalledWith(WRONG_CURRENT));
    const field = screen.getByTestId('preferences-current-password');
    // Mantine's PasswordInput marks the error with data-invalid and points aria-describedby at the message.
    expect(field).toHaveAttribute('data-invalid', 'true');
    expect(field).toHaveAccessibleDescription(expect.stringContaining(WRONG_CURRENT) as string);
    expect(field).toHaveValue('wrong');
    expect(screen.getByTestId('preferences-email')).toHaveValue('ana.souza@example.com');
    expect(notifySuccess).not.toHaveBeenCalled();
    expect(localStorage.getItem('token')).toBe('old-jwt');
    // A 400 must not end the session the way a 401 would.
    expect(localStorage.getItem('userId')).toBe('9');
  });
});
