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
type Handler = (url: URL, init: RequestInit | undefined) => Response | Promise<Response>;

function serve(handler: Handler) {
  fetchMock.mockImplementation(async (input, init) => handler(new URL(String(input), 'http://localhost'), init));
}

function logIn(profile: Profile) {
  localStorage.setItem('token', 'jwt');
  localStorage.setItem('profile', profile);
  localStorage.setItem('userId', '5');
  localStorage.setItem('tenantId', '1');
}

const maria = contactFixture(1, {
  name: 'Maria Souza',
  number: '5511912345678',
  email: 'maria@example.com',
  tags: [{ id: 3, tag: 'VIP', color: '#e03131' }],
  wallets: [{ id: 5, name: 'Ana Atendente' }],
  blocked: true,
});
const joao = contactFixture(2, { name: 'João Pereira', number: '351912345678', chatbotBlocked: true });

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.mocked(notifyError).mockClear();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe('contacts page', () => {
  it('lists contacts: formatted numbers, tags, flags and a capped count', async () => {
    logIn('admin');
    serve(() => jsonResponse(contactPage([maria, joao], 10_000, true)));
    renderWithProviders(<ContactsPage />);
    const row = await screen.findByTestId('contact-row-1');
    expect(within(row).getByText('Maria Souza')).toBeInTheDocument();
    expect(within(row).getByText('+55 (11) 91234-5678')).toBeInTheDocument();
    expect(within(row).getByText('VIP')).toBeInTheDocument();
    expect(within(row).getByText('maria@example.com')).toBeInTheDocument();
    // Wallets are a column of wide screens only (jsdom matches no media query).
    expect(within(row).queryByText('Ana Atendente')).not.toBeInTheDocument();
    expect(within(row).getByText('Bloqueado')).toBeInTheDocument();
    const other = screen.getByTestId('contact-row-2');
    expect(within(other).getByText('+351912345678')).toBeInTheDocument();
    expect(within(other).getByText('Sem chatbot')).toBeInTheDocument();
    expect(screen.getByText(/10\.000\+/)).toBeInTheDocument();
    const url = new URL(String(fetchMock.mock.calls[0]?.[0]), 'http://localhost');
    expect(url.pathname).toBe('/api/contacts/');
    expect(Object.fromEntries(url.searchParams)).toEqual({ searchParam: '', pageNumber: '1', rowsPerPage: '20' });
    for (const id of ['contacts-import', 'contacts-export', 'contacts-duplicates', 'contact-delete-1']) {
      expect(screen.getByTestId(id)).toBeInTheDocument();
    }
  });

  it('searches once the typing pauses', async () => {
    logIn('admin');
    serve((url) => {
      const search = url.searchParams.get('searchParam');
      return jsonResponse(contactPage(search === 'jo' ? [joao] : [maria, joao]));
    });
    renderWithProviders(<ContactsPage />);
    await screen.findByTestId('contact-row-1');
    fireEvent.change(screen.getByTestId('contacts-search'), { target: { value: 'j' } });
    fireEvent.change(screen.getByTestId('contacts-search'), { target: { value: ' jo ' } });
    await waitFor(() => expect(screen.queryByTestId('contact-row-1')).not.toBeInTheDocument());
    expect(screen.getByTestId('contact-row-2')).toBeInTheDocument();
    const searches = fetchMock.mock.calls.map(([input]) =>
      new URL(String(input), 'http://localhost').searchParams.get('searchParam'),
    );
    expect(searches).toEqual(['', 'jo']);
  });

  it('shows the empty state for a search without matches', async () => {
    logIn('user');
    serve((url) => jsonResponse(contactPage(url.searchParams.get('searchParam') ? [] : [maria])));
    renderWithProviders(<ContactsPage />);
    await screen.findByTestId('contact-row-1');
    fireEvent.change(screen.getByTestId('contacts-search'), { target: { value: 'zzz' } });
    expect(await screen.findByText('Nenhum contato encontrado para a busca.')).toBeInTheDocument();
  });

  it('hides delete, import, export and duplicates from the user profile', async () => {
    logIn('user');
    serve(() => jsonResponse(contactPage([maria])));
    renderWithProviders(<ContactsPage />);
    await screen.findByTestId('contact-row-1');
    expect(screen.getByTestId('contacts-new')).toBeInTheDocument();
    expect(screen.getByTestId('contact-edit-1')).toBeInTheDocument();
    expect(screen.getByTestId('contact-block-1')).toBeInTheDocument();
    for (const id of ['contacts-import', 'contacts-export', 'contacts-duplicates', 'contact-delete-1']) {
      expect(screen.queryByTestId(id)).not.toBeInTheDocument();
    }
  });

  it('shows a failed load with a retry', async () => {
    logIn('admin');
    let calls = 0;
    serve(() => {
      calls += 1;
      return calls === 1 ? jsonResponse({ error: 'ERR_NO_PERMISSION' }, 400) : jsonResponse(contactPage([maria]));
    });
    renderWithProviders(<ContactsPage />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Você não tem permissão');
    fireEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByTestId('contact-row-1')).toBeInTheDocument();
  });

  it('blocks with a partial PUT and patches the row in place', async () => {
    logIn('user');
    serve((url, init) => {
      if (init?.method === 'PUT' && url.pathname === '/api/contacts/2') {
        return jsonResponse({ ...joao, ...(JSON.parse(String(init.body)) as object) });
      }
      return jsonResponse(contactPage([maria, joao]));
    });
    renderWithProviders(<ContactsPage />);
    const row = await screen.findByTestId('contact-row-2');
    expect(within(row).queryByText('Bloqueado')).not.toBeInTheDocument();
    fireEvent.click(screen.getByTestId('contact-block-2'));
    expect(await within(row).findByText('Bloqueado')).toBeInTheDocument();
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ blocked: true });
    expect(fetchMock.mock.calls.filter(([, init]) => (init?.method ?? 'GET') === 'GET')).toHaveLength(1);
  });

  it('deletes after confirmation; a refusal shows the screen text with the catalogue text', async () => {
    logIn('admin');
    serve((_url, init) =>
      init?.method === 'DELETE'
        ? jsonResponse({ error: 'ERR_CONTACT_TICKETS_REGISTERED' }, 409)
        : jsonResponse(contactPage([maria])),
    );
    renderWithProviders(<ContactsPage />);
    fireEvent.click(await screen.findByTestId('contact-delete-1'));
    fireEvent.click(await screen.findByTestId('confirm-delete'));
    await waitFor(() =>
      expect(notifyError).toHaveBeenCalledWith(
        'Não é possível excluir um contato com tickets.',
        'Erro ao deletar contato.',
      ),
    );
    expect(screen.getByTestId('contact-row-1')).toBeInTheDocument();
  });
});
