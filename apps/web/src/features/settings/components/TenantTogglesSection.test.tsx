/** The company toggles on the settings screen: defaults from GET /tenants/undefined, one PUT per toggle, undo on error. */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetApiState } from '../../../lib/api';
import { jsonResponse, renderWithProviders } from '../../../test/render';
import { TenantTogglesSection } from './TenantTogglesSection';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));
const { notifyError, notifySuccess } = await import('../../../lib/notify');

const fetchMock = vi.fn<typeof fetch>();
const writes = () =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method === 'PUT')
    .map(([input, init]) => ({
      path: new URL(String(input), 'http://localhost').pathname,
      body: JSON.parse(String(init?.body)) as unknown,
    }));

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.mocked(notifyError).mockClear();
  vi.mocked(notifySuccess).mockClear();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
});
afterEach(() => vi.unstubAllGlobals());

describe('company toggles', { timeout: 20_000 }, () => {
  it('shows the stored values and defaults under their headings and saves a switch with its own call', async () => {
    fetchMock.mockImplementation(async (_input, init) => {
      if (init?.method === 'PUT') return jsonResponse({ id: 3, supervisorAdmin: 'enabled' });
      return jsonResponse([{ id: 3, name: 'Acme', showGroupsForAll: 'enabled' }]);
    });
    renderWithProviders(<TenantTogglesSection />);
    expect(await screen.findByRole('heading', { name: 'Empresa: visibilidade' })).toBeInTheDocument();
    expect(screen.getByTestId('tenant-flag-showGroupsForAll')).toBeChecked();
    expect(screen.getByTestId('tenant-flag-nullTickets')).toBeChecked(); // default enabled
    expect(screen.getByTestId('tenant-flag-maxRetries')).toHaveValue('3');
    fireEvent.click(screen.getByTestId('tenant-flag-supervisorAdmin'));
    await waitFor(() => expect(notifySuccess).toHaveBeenCalledWith('Configuração alterada!'));
    expect(writes()).toEqual([{ path: '/api/tenantsSupervisorAdmin/3', body: { id: 3, supervisorAdmin: 'enabled' } }]);
  });

  it('saves a limit on blur only when valid, and puts a refused switch back', async () => {
    fetchMock.mockImplementation(async (input, init) => {
      const url = String(input);
      if (init?.method === 'PUT' && url.includes('tenantsForceAdmin')) {
        return jsonResponse({ error: 'ERR_NO_PERMISSION' }, 403);
      }
      if (init?.method === 'PUT') return jsonResponse({ id: 3, maxRetries: 5 });
      return jsonResponse([{ id: 3, name: 'Acme' }]);
    });
    renderWithProviders(<TenantTogglesSection />);
    const limit = await screen.findByTestId('tenant-flag-maxRetries');
    fireEvent.change(limit, { target: { value: '0' } });
    fireEvent.blur(limit);
    expect(await screen.findByText('Informe um número de 1 a 1000')).toBeInTheDocument();
    fireEvent.change(limit, { target: { value: '5' } });
    fireEvent.blur(limit);
    await waitFor(() =>
      expect(writes()).toEqual([{ path: '/api/tenantsMaxRetries/3', body: { id: 3, maxRetries: 5 } }]),
    );
    fireEvent.click(screen.getByTestId('tenant-flag-forceAdmin'));
    await waitFor(() => expect(notifyError).toHaveBeenCalled());
    await waitFor(() => expect(screen.getByTestId('tenant-flag-forceAdmin')).not.toBeChecked());
  });
});
