/** The user form's queues and allowed channels: shown from the user's objects, sent back as ids. */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserDto } from '@conversa/shared';
import { resetApiState } from '../../../lib/api';
import { channelFixture } from '../../../test/channels';
import { jsonResponse, renderWithProviders } from '../../../test/render';
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
