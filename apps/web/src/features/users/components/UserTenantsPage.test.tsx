/**
 * /usuariotenants: every company's users with their company, a company filter, and the form that creates a company's
 * users (its admin first) with the product's password rule.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Profile } from '@conversa/shared';
import { resetApiState } from '../../../lib/api';
import { jsonResponse, renderWithProviders, typeInto } from '../../../test/render';
import { tenantFixture } from '../../../test/tenants';
import { UserTenantsPage } from './UserTenantsPage';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));

const fetchMock = vi.fn<typeof fetch>();
const companies = [tenantFixture({ id: 1, name: 'Matriz' }), tenantFixture({ id: 7, name: 'Padaria Nova' })];

const row = (id: number, tenantId: number, profile: Profile, name: string) => ({
  id,
  name,
  email: `u${id}@empresa.test`,
  profile,
  tenantId,
  isOnline: false,
  blockWavoip: false,
  queues: [],
  whatsappAllowed: [],
  configs: {},
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  tenant: { id: tenantId, name: companies.find((c) => c.id === tenantId)!.name },
});

const users = [row(1, 1, 'superadmin', 'Root'), row(2, 1, 'admin', 'Ana Matriz')];

/** Opens a Mantine Select and clicks one of its own options (another Select's list may also be in the page). */
async function pick(testId: string, name: string) {
  const input = screen.getByTestId(testId);
  fireEvent.click(input);
  await waitFor(() => expect(input).toHaveAttribute('aria-controls'));
  const listbox = document.getElementById(input.getAttribute('aria-controls')!)!;
  fireEvent.click(await within(listbox).findByRole('option', { name, hidden: true }));
}

const calls = () =>
  fetchMock.mock.calls.map(([input, init]) => ({
    method: init?.method ?? 'GET',
    url: String(input),
    body: init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : undefined,
  }));

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
  localStorage.setItem('profile', 'superadmin');
  localStorage.setItem('userId', '1');
  fetchMock.mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname === '/api/tenants/') return jsonResponse(companies);
    if (url.pathname === '/api/userTenants/' || url.pathname === '/api/userTenants') {
      if (init?.method === 'POST') {
        const body = JSON.parse(String(init.body)) as { tenantId: number; profile: Profile; name: string };
        return jsonResponse(row(9, body.tenantId, body.profile, body.name), 201);
      }
      const tenantId = url.searchParams.get('tenantId');
      const rows = tenantId ? users.filter((u) => u.tenantId === Number(tenantId)) : users;
      return jsonResponse({ users: rows, count: rows.length, hasMore: false });
    }
    return jsonResponse({});
  });
});
afterEach(() => vi.unstubAllGlobals());

describe('users of every company', { timeout: 30_000 }, () => {
  it('shows each user’s company and filters the list by company', async () => {
    renderWithProviders(<UserTenantsPage />);
    expect(await screen.findByTestId('user-company-2')).toHaveTextContent('1 · Matriz');
    await pick('users-company-filter', '7 · Padaria Nova');
    await waitFor(() => expect(calls().some((c) => c.url.includes('tenantId=7'))).toBe(true));
    expect(await screen.findByText('Nenhum usuário encontrado para a busca.')).toBeInTheDocument();
  });

  it('creates a new company’s admin first, refusing a 6-character password', async () => {
    renderWithProviders(<UserTenantsPage />);
    await screen.findByTestId('user-company-2');
    fireEvent.click(screen.getByTestId('users-new'));
    const dialog = await screen.findByRole('dialog');
    await pick('user-form-company', '7 · Padaria Nova');
    // The company has no admin yet: the profile starts at admin, and the form says why.
    expect(await within(dialog).findByTestId('user-form-first-admin')).toHaveTextContent(
      'Esta empresa ainda não tem administrador: este usuário será o primeiro.',
    );
    expect(within(dialog).getByTestId('user-form-profile')).toHaveValue('admin');
    typeInto('user-form-name', 'Paula Padaria');
    typeInto('user-form-email', 'paula@padaria.test');
    typeInto('user-form-password', 'Ab1!xy');
    fireEvent.click(within(dialog).getByTestId('user-form-submit'));
    expect(
      await within(dialog).findByText(
        'A senha deve ter ao menos 7 caracteres, com letras, números e um caractere especial.',
      ),
    ).toBeInTheDocument();
    expect(calls().some((c) => c.method === 'POST')).toBe(false);

    typeInto('user-form-password', 'Ab1!xyz');
    fireEvent.click(within(dialog).getByTestId('user-form-submit'));
    await waitFor(() => expect(calls().some((c) => c.method === 'POST')).toBe(true));
    expect(calls().find((c) => c.method === 'POST')).toMatchObject({
      url: '/api/userTenants',
      body: {
        tenantId: 7,
        name: 'Paula Padaria',
        email: 'paula@padaria.test',
        password: 'Ab1!xyz',
        profile: 'admin',
      },
    });
  });

  it('keeps the chosen profile for a company that already has its admin', async () => {
    renderWithProviders(<UserTenantsPage />);
    await screen.findByTestId('user-company-2');
    fireEvent.click(screen.getByTestId('users-new'));
    const dialog = await screen.findByRole('dialog');
    await pick('user-form-company', '1 · Matriz');
    await waitFor(() => expect(calls().filter((c) => c.url.includes('tenantId=1')).length).toBeGreaterThan(0));
    expect(within(dialog).queryByTestId('user-form-first-admin')).not.toBeInTheDocument();
    expect(within(dialog).getByTestId('user-form-profile')).toHaveValue('user');
  });
});
