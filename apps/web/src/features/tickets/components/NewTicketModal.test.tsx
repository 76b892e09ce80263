import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetApiState } from '../../../lib/api';
import { contactFixture } from '../../../test/contacts';
import { jsonResponse, renderWithProviders } from '../../../test/render';
import { channelFixture, ticketDtoFixture } from '../../../test/tickets';
import { NewTicketModal } from './NewTicketModal';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));

const fetchMock = vi.fn<typeof fetch>();
const CATALOGUE_TEXT = 'Já existe um ticket aberto/pendente para esse contato.';

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
  localStorage.setItem('userId', '5');
  localStorage.setItem('tenantId', '1');
});
afterEach(() => vi.unstubAllGlobals());

/** The modal against a server whose POST /tickets answers 409 with `conflict`. */
async function submitAgainst(conflict: unknown) {
  const maria = contactFixture(31, { name: 'Maria Souza', telegramId: '4242' });
  fetchMock.mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname === '/api/tickets' && init?.method === 'POST') return jsonResponse(conflict, 409);
    if (url.pathname === '/api/contacts/')
      return jsonResponse({ contacts: [maria], count: 1, countCapped: false, hasMore: false });
    if (url.pathname === '/api/whatsapp/') return jsonResponse([channelFixture(7, { name: 'Bot' })]);
    return jsonResponse({ error: 'ERR_NOT_FOUND' }, 404);
  });
  const onOpenTicket = vi.fn();
  renderWithProviders(<NewTicketModal opened userId={5} onClose={() => undefined} onOpenTicket={onOpenTicket} />);
  const contact = await screen.findByTestId('new-ticket-contact');
  contact.focus();
  fireEvent.change(contact, { target: { value: 'Ma' } });
  fireEvent.click(await screen.findByRole('option', { name: /Maria Souza/, hidden: true }, { timeout: 3000 }));
  await waitFor(() => expect(screen.getByTestId('new-ticket-submit')).toBeEnabled());
  fireEvent.click(screen.getByTestId('new-ticket-submit'));
  return { alert: await screen.findByTestId('new-ticket-error'), onOpenTicket };
}

describe('new ticket modal: 409 ERR_OTHER_OPEN_TICKET', () => {
  it('shows the catalogue text, never the ticket JSON in `error`, and opens the visible ticket', async () => {
    const ticket = ticketDtoFixture(3);
    const body = { error: JSON.stringify(ticket), code: 'ERR_OTHER_OPEN_TICKET', ticket };
    const { alert, onOpenTicket } = await submitAgainst(body);
    expect(alert).toHaveTextContent(CATALOGUE_TEXT);
    expect(alert.textContent).not.toContain('{');
    fireEvent.click(screen.getByTestId('new-ticket-open-existing'));
    expect(onOpenTicket).toHaveBeenCalledWith(3);
  });

  it('a ticket the agent may not see: the catalogue text and nothing to open', async () => {
    const { alert } = await submitAgainst({ error: 'ERR_OTHER_OPEN_TICKET' });
    expect(alert).toHaveTextContent(CATALOGUE_TEXT);
    expect(screen.queryByTestId('new-ticket-open-existing')).not.toBeInTheDocument();
  });

  it('a reference server (the ticket JSON in `error` only): the catalogue text and the ticket to open', async () => {
    const { alert, onOpenTicket } = await submitAgainst({ error: JSON.stringify({ id: 9, status: 'open' }) });
    expect(alert).toHaveTextContent(CATALOGUE_TEXT);
    expect(alert.textContent).not.toContain('{');
    fireEvent.click(screen.getByTestId('new-ticket-open-existing'));
    expect(onOpenTicket).toHaveBeenCalledWith(9);
  });
});
