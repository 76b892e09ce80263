import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Profile } from '@conversa/shared';
import { resetApiState } from '../../../lib/api';
import { contactFixture, contactPage } from '../../../test/contacts';
import { jsonResponse, renderWithProviders } from '../../../test/render';
import { ContactsPage } from './ContactsPage';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));
const { notifyError } = await import('../../../lib/notify');

const fetchMock = vi.fn<typeof fetch>();
let tools: Record<string, () => Response | Promise<Response>>;
const pathOf = (input: unknown) => new URL(String(input), 'http://localhost').pathname;
const callsTo = (path: string) =>
  fetchMock.mock.calls.filter(([input, init]) => pathOf(input) === path && init?.method === 'POST');
const listReads = () => fetchMock.mock.calls.filter(([input]) => pathOf(input) === '/api/contacts/').length;

function logIn(profile: Profile) {
  localStorage.setItem('token', 'jwt');
  localStorage.setItem('profile', profile);
  localStorage.setItem('userId', '5');
  localStorage.setItem('tenantId', '1');
}

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.mocked(notifyError).mockClear();
  tools = {};
  fetchMock.mockImplementation(async (input) => {
    const tool = tools[pathOf(input)];
    return tool ? tool() : jsonResponse(contactPage([contactFixture(1, { name: 'Maria Souza' })]));
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

const openTools = async () => {
  fireEvent.click(await screen.findByTestId('contacts-session-tools'));
  return screen.findByRole('menu');
};

describe('contacts page: WhatsApp session tools', () => {
  it.each([
    ['contacts-sync-phone', '/api/contacts/sync', 'Contatos do celular sincronizados'],
    ['contacts-sync-groups', '/api/groups/sync', 'Grupos sincronizados'],
  ])('%s posts %s, shows the counts and reads the list again', async (item, path, title) => {
    logIn('admin');
    tools[path] = () => jsonResponse({ message: 'ok', total: 1234, created: 12, renamed: 3 });
    renderWithProviders(<ContactsPage />);
    await screen.findByTestId('contact-row-1');
    const readsBefore = listReads();
    await openTools();
    fireEvent.click(screen.getByTestId(item));
    const dialog = await screen.findByRole('dialog', { name: title });
    expect(callsTo(path)).toHaveLength(1);
    expect(within(dialog).getByRole('rowheader', { name: 'Lidos' }).closest('tr')).toHaveTextContent('1.234');
    expect(within(dialog).getByRole('rowheader', { name: 'Criados' }).closest('tr')).toHaveTextContent('12');
    expect(within(dialog).getByRole('rowheader', { name: 'Renomeados' }).closest('tr')).toHaveTextContent('3');
    await waitFor(() => expect(listReads()).toBeGreaterThan(readsBefore));
  });

  it('checks every number only after a confirmation, and shows checked/valid/invalid/failed', async () => {
    logIn('superadmin');
    tools['/api/checkContacts'] = () => jsonResponse({ message: 'ok', checked: 40, valid: 35, invalid: 4, failed: 1 });
    renderWithProviders(<ContactsPage />);
    await screen.findByTestId('contact-row-1');
    await openTools();
    fireEvent.click(screen.getByTestId('contacts-check-numbers'));
    await screen.findByText('Verificar todos os números?');
    expect(callsTo('/api/checkContacts')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('confirm-check-contacts'));
    const dialog = await screen.findByRole('dialog', { name: 'Verificação concluída' });
    expect(callsTo('/api/checkContacts')).toHaveLength(1);
    for (const [label, count] of [
      ['Verificados', '40'],
      ['Com WhatsApp', '35'],
      ['Sem WhatsApp', '4'],
      ['Não foi possível verificar', '1'],
    ] as const) {
      expect(within(dialog).getByRole('rowheader', { name: label }).closest('tr')).toHaveTextContent(count);
    }
  });

  it('locks the menu while a tool runs and says so to screen readers', async () => {
    logIn('admin');
    let answer: (value: Response) => void = () => undefined;
    tools['/api/groups/sync'] = () => new Promise<Response>((resolve) => (answer = resolve));
    renderWithProviders(<ContactsPage />);
    await screen.findByTestId('contact-row-1');
    await openTools();
    fireEvent.click(screen.getByTestId('contacts-sync-groups'));
    await waitFor(() => expect(screen.getByTestId('contacts-session-tools')).toHaveAttribute('data-loading', 'true'));
    expect(screen.getByTestId('contacts-session-tools')).toBeDisabled();
    expect(screen.getByRole('status')).toHaveTextContent('Sincronizando grupos…');
    answer(jsonResponse({ message: 'ok', total: 0, created: 0, renamed: 0 }));
    await screen.findByRole('dialog', { name: 'Grupos sincronizados' });
    expect(screen.getByTestId('contacts-session-tools')).not.toBeDisabled();
  });

  it.each([
    [
      'contacts-sync-phone',
      '/api/contacts/sync',
      'ERR_WAPP_NOT_INITIALIZED',
      'Sessão não inicializada.',
      'Erro ao sincronizar os contatos do celular.',
    ],
    [
      'contacts-sync-groups',
      '/api/groups/sync',
      'ERR_CHANNEL_TYPE_UNSUPPORTED',
      'Este tipo de conexão ainda não está disponível.',
      'Erro ao sincronizar os grupos.',
    ],
  ])('%s: a refusal shows the screen text with the catalogue text', async (item, path, code, text, title) => {
    logIn('admin');
    tools[path] = () => jsonResponse({ error: code }, 409);
    renderWithProviders(<ContactsPage />);
    await screen.findByTestId('contact-row-1');
    await openTools();
    fireEvent.click(screen.getByTestId(item));
    await waitFor(() => expect(notifyError).toHaveBeenCalledWith(text, title));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('a refused check shows ERR_CONTACTS_NOT_EXISTS_WHATSAPP in words', async () => {
    logIn('admin');
    tools['/api/checkContacts'] = () => jsonResponse({ error: 'ERR_CONTACTS_NOT_EXISTS_WHATSAPP' }, 400);
    renderWithProviders(<ContactsPage />);
    await screen.findByTestId('contact-row-1');
    await openTools();
    fireEvent.click(screen.getByTestId('contacts-check-numbers'));
    fireEvent.click(await screen.findByTestId('confirm-check-contacts'));
    await waitFor(() =>
      expect(notifyError).toHaveBeenCalledWith('Os contatos não existem no WhatsApp.', 'Erro ao verificar os números.'),
    );
  });

  it('is not offered to supervisors (the server allows admins only)', async () => {
    logIn('super');
    renderWithProviders(<ContactsPage />);
    await screen.findByTestId('contact-row-1');
    expect(screen.getByTestId('contacts-import')).toBeInTheDocument();
    expect(screen.queryByTestId('contacts-session-tools')).not.toBeInTheDocument();
  });
});
