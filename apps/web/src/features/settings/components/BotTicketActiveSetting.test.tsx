/** botTicketActive on the general settings: a select of the flows that saves the flow's id as text ('' for none). */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetApiState } from '../../../lib/api';
import { jsonResponse, renderWithProviders } from '../../../test/render';
import { GeneralSettingsPage } from './GeneralSettingsPage';
import { chatFlowFixture } from '../../../test/chat-flows';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));

const fetchMock = vi.fn<typeof fetch>();
let stored: string;
const writes = () =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method === 'PUT')
    .map(([url, init]) => ({ path: String(url), body: JSON.parse(String(init?.body)) as unknown }));

beforeEach(() => {
  resetApiState();
  stored = '';
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url, init) => {
    const path = String(url);
    if (init?.method === 'PUT') return jsonResponse({});
    if (path === '/api/settings/') return jsonResponse([{ key: 'botTicketActive', value: stored }]);
    if (path === '/api/chat-flow')
      return jsonResponse({ chatFlow: [chatFlowFixture(3, 'Vendas', true), chatFlowFixture(4, 'Teste', false)] });
    return jsonResponse({ error: 'ERR_NOT_MOCKED' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
});
afterEach(() => vi.unstubAllGlobals());

/** The select's input (its accessible name is the visible label). */
const select = () => {
  const input = screen.getByTestId('setting-botTicketActive');
  expect(input).toHaveAccessibleName('Fluxo do chatbot para novos tickets');
  return input;
};

describe('botTicketActive setting', { timeout: 40_000 }, () => {
  it('lists the flows (inactive ones say so) and saves the picked id as text', async () => {
    renderWithProviders(<GeneralSettingsPage />);
    await screen.findByTestId('setting-botTicketActive');
    await waitFor(() => expect(select()).toHaveValue('Nenhum fluxo'));
    fireEvent.click(select());
    expect(await screen.findByRole('option', { name: 'Teste (inativo)', hidden: true })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('option', { name: 'Vendas', hidden: true }));
    await waitFor(() =>
      expect(writes()).toEqual([
        { path: '/api/settings/botTicketActive/', body: { key: 'botTicketActive', value: '3' } },
      ]),
    );
  });

  it('shows the stored flow by name; "Nenhum fluxo" saves an empty text', async () => {
    stored = '3';
    renderWithProviders(<GeneralSettingsPage />);
    await waitFor(() => expect(select()).toHaveValue('Vendas'));
    fireEvent.click(select());
    fireEvent.click(await screen.findByRole('option', { name: 'Nenhum fluxo', hidden: true }));
    await waitFor(() =>
      expect(writes()).toEqual([
        { path: '/api/settings/botTicketActive/', body: { key: 'botTicketActive', value: '' } },
      ]),
    );
  });

  it('a stored id that is no flow any more still shows, as not found', async () => {
    stored = '99';
    renderWithProviders(<GeneralSettingsPage />);
    await waitFor(() => expect(select()).toHaveValue('Fluxo #99 (não encontrado)'));
  });
});
