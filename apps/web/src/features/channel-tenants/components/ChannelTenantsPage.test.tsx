/** /sessoestenants: every company's channels (name, number, status, company, updated at) and their CRUD. */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TenantChannelSummary } from '@conversa/shared';
import { resetApiState } from '../../../lib/api';
import { channelFixture } from '../../../test/channels';
import { jsonResponse, renderWithProviders, typeInto } from '../../../test/render';
import { tenantFixture } from '../../../test/tenants';
import { ChannelTenantsPage } from './ChannelTenantsPage';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));

const fetchMock = vi.fn<typeof fetch>();
const companies = [tenantFixture({ id: 1, name: 'Matriz' }), tenantFixture({ id: 7, name: 'Padaria Nova' })];
const summaries: TenantChannelSummary[] = [
  {
    id: 3,
    tenantId: 7,
    name: 'Bot Padaria',
    type: 'telegram',
    number: 'padaria_bot',
    status: 'CONNECTED',
    isDefault: true,
    updatedAt: '2026-03-04T15:06:07.000Z',
  },
  {
    id: 4,
    tenantId: 1,
    name: 'WhatsApp Matriz',
    type: 'baileys',
    number: null,
    status: 'DISCONNECTED',
    isDefault: true,
    updatedAt: '2026-03-01T10:00:00.000Z',
  },
];

const calls = () =>
  fetchMock.mock.calls.map(([input, init]) => ({
    method: init?.method ?? 'GET',
    url: String(input),
    body: init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : undefined,
  }));

async function pick(testId: string, name: string) {
  const input = screen.getByTestId(testId);
  fireEvent.click(input);
  await waitFor(() => expect(input).toHaveAttribute('aria-controls'));
  const listbox = document.getElementById(input.getAttribute('aria-controls')!)!;
  fireEvent.click(await within(listbox).findByRole('option', { name, hidden: true }));
}

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
  fetchMock.mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname === '/api/tenants/') return jsonResponse(companies);
    if (url.pathname === '/api/whatsappTenantsAll/') return jsonResponse(summaries);
    if (url.pathname === '/api/whatsappTenants' && init?.method === 'POST') {
      const body = JSON.parse(String(init.body)) as { tenantId: number; name: string };
      return jsonResponse(channelFixture(9, { tenantId: body.tenantId, name: body.name, type: 'telegram' }), 201);
    }
    if (url.pathname === '/api/whatsappTenants/3') {
      if (init?.method === 'DELETE') return new Response(null, { status: 204 });
      if (init?.method === 'PUT') return jsonResponse(channelFixture(3, { tenantId: 7, type: 'telegram' }));
      return jsonResponse(
        channelFixture(3, { tenantId: 7, name: 'Bot Padaria', type: 'telegram', configuredSecrets: ['tokenTelegram'] }),
      );
    }
    return jsonResponse({});
  });
});
afterEach(() => vi.unstubAllGlobals());

describe('channels of every company', { timeout: 30_000 }, () => {
  it('lists name, number, status, company and update time, filtered by company', async () => {
    renderWithProviders(<ChannelTenantsPage />);
    const row = await screen.findByTestId('channel-tenant-row-3');
    expect(within(row).getByText('Bot Padaria')).toBeInTheDocument();
    expect(within(row).getByText('padaria_bot')).toBeInTheDocument();
    expect(within(row).getByText('Conectado')).toBeInTheDocument();
    expect(await within(row).findByText('7 · Padaria Nova')).toBeInTheDocument();
    expect(within(row).getByText(/^04\/03\/2026 \d\d:06:07$/)).toBeInTheDocument();
    expect(screen.getByTestId('channel-tenant-row-4')).toBeInTheDocument();
    await pick('channel-tenants-company-filter', '7 · Padaria Nova');
    await waitFor(() => expect(screen.queryByTestId('channel-tenant-row-4')).not.toBeInTheDocument());
    expect(screen.getByTestId('channel-tenant-row-3')).toBeInTheDocument();
  });

  it('creates a channel in the chosen company with its credentials', async () => {
    renderWithProviders(<ChannelTenantsPage />);
    await screen.findByTestId('channel-tenant-row-3');
    fireEvent.click(screen.getByTestId('channel-tenants-new'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByTestId('channel-tenant-form-submit'));
    expect(await within(dialog).findByText('Empresa é obrigatório')).toBeInTheDocument();
    await pick('channel-tenant-form-company', '7 · Padaria Nova');
    typeInto('channel-tenant-form-name', 'Bot Novo');
    fireEvent.change(within(dialog).getByTestId('channel-tenant-form-type'), { target: { value: 'telegram' } });
    fireEvent.click(within(dialog).getByTestId('channel-tenant-form-submit'));
    expect(await within(dialog).findByText('Token do bot do Telegram é obrigatório')).toBeInTheDocument();
    typeInto('channel-tenant-form-tokenTelegram', '7000000031:AAH-tenants_bot_token');
    fireEvent.click(within(dialog).getByTestId('channel-tenant-form-submit'));
    await waitFor(() => expect(calls().some((c) => c.method === 'POST')).toBe(true));
    expect(calls().find((c) => c.method === 'POST')).toMatchObject({
      url: '/api/whatsappTenants',
      body: { tenantId: 7, name: 'Bot Novo', type: 'telegram', tokenTelegram: '7000000031:AAH-tenants_bot_token' },
    });
  });

  it('edits without resending a stored secret, and deletes after confirming', async () => {
    renderWithProviders(<ChannelTenantsPage />);
    await screen.findByTestId('channel-tenant-row-3');
    fireEvent.click(screen.getByTestId('channel-tenant-edit-3'));
    const dialog = await screen.findByRole('dialog');
    const name = await within(dialog).findByTestId('channel-tenant-form-name');
    expect(within(dialog).getByTestId('channel-tenant-form-company')).toBeDisabled();
    fireEvent.change(name, { target: { value: 'Bot Renomeado' } });
    fireEvent.click(within(dialog).getByTestId('channel-tenant-form-submit'));
    await waitFor(() => expect(calls().some((c) => c.method === 'PUT')).toBe(true));
    const put = calls().find((c) => c.method === 'PUT')!;
    expect(put.url).toBe('/api/whatsappTenants/3');
    expect(put.body).toEqual({ name: 'Bot Renomeado', type: 'telegram', isDefault: false });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    fireEvent.click(screen.getByTestId('channel-tenant-delete-3'));
    fireEvent.click(await screen.findByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(calls().some((c) => c.method === 'DELETE')).toBe(true));
    expect(calls().find((c) => c.method === 'DELETE')?.url).toBe('/api/whatsappTenants/3');
  });
});
