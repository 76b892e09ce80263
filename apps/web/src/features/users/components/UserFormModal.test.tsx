/** The user form's queues and allowed channels: shown from the user's objects, sent back as ids. */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserDto } from '@conversa/shared';
import { resetApiState } from '../../../lib/api';
import { channelFixture } from '../../../test/channels';
import { jsonResponse, renderWithProviders, typeInto } from '../../../test/render';
import { UserFormModal } from './UserFormModal';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));

const fetchMock = vi.fn<typeof fetch>();
const user: UserDto = {
  id: 9,
  name: 'Bia',
  email: 'bia@loja.test',
  profile: 'user',
  tenantId: 1,
  isOnline: false,
  blockWavoip: false,
  queues: [{ id: 1, queue: 'Vendas', name: 'Vendas' }],
  whatsappAllowed: [{ id: 5, name: 'WhatsApp Loja' }],
  configs: {},
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
  fetchMock.mockImplementation(async (input, init) => {
    const url = String(input);
    if (init?.method === 'PUT') return jsonResponse({ ...user, ...(JSON.parse(String(init.body)) as object) });
    if (url.includes('/queue/')) {
      return jsonResponse([
        { id: 1, queue: 'Vendas', isActive: true },
        { id: 2, queue: 'Suporte', isActive: true },
      ]);
    }
    if (url.includes('/whatsapp/')) {
      return jsonResponse([channelFixture(5, { name: 'WhatsApp Loja' }), channelFixture(6, { name: 'Telegram' })]);
    }
    return jsonResponse({});
  });
});
afterEach(() => vi.unstubAllGlobals());

describe('user form: queues and allowed channels', { timeout: 20_000 }, () => {
  it('an admin sees the user’s queues and channels and saves them as ids', async () => {
    renderWithProviders(
      <UserFormModal opened onClose={() => undefined} user={user} currentUserId={1} currentProfile="admin" />,
    );
    expect((await screen.findAllByText('Vendas')).length).toBeGreaterThan(0);
    expect((await screen.findAllByText('WhatsApp Loja')).length).toBeGreaterThan(0);
    fireEvent.click(screen.getByTestId('user-form-submit'));
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(true));
    const [, init] = fetchMock.mock.calls.find(([, i]) => i?.method === 'PUT')!;
    expect(JSON.parse(String(init?.body))).toMatchObject({ queues: [1], whatsappAllowed: [5] });
  });

  it('a supervisor cannot change them (the selects are disabled)', async () => {
    renderWithProviders(
      <UserFormModal opened onClose={() => undefined} user={user} currentUserId={1} currentProfile="super" />,
    );
    await screen.findAllByText('Vendas');
    expect(screen.getByTestId('user-form-queues')).toBeDisabled();
    expect(screen.getByTestId('user-form-channels')).toBeDisabled();
  });
});

describe('user form: the one password rule', { timeout: 20_000 }, () => {
  it('refuses a 6-character password (and one without a symbol) before sending, then creates with 7', async () => {
    fetchMock.mockImplementation(async (input, init) => {
      if (init?.method === 'POST') return jsonResponse({ ...user, id: 10 }, 201);
      return jsonResponse(String(input).includes('/queue/') ? [] : []);
    });
    renderWithProviders(<UserFormModal opened onClose={() => undefined} currentUserId={1} currentProfile="admin" />);
    typeInto('user-form-name', 'Nova');
    typeInto('user-form-email', 'nova@loja.test');
    const rule = 'A senha deve ter ao menos 7 caracteres, com letras, números e um caractere especial.';
    for (const weak of ['Ab1!xy', 'abcdefg1']) {
      typeInto('user-form-password', weak);
      fireEvent.click(screen.getByTestId('user-form-submit'));
      expect(await screen.findByText(rule)).toBeInTheDocument();
    }
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
    typeInto('user-form-password', 'Ab1!xyz');
    fireEvent.click(screen.getByTestId('user-form-submit'));
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(true));
    const [, init] = fetchMock.mock.calls.find(([, i]) => i?.method === 'POST')!;
    expect(JSON.parse(String(init?.body))).toMatchObject({ email: 'nova@loja.test', password: 'Ab1!xyz' });
  });
});
