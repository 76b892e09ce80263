import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetApiState } from '../../../lib/api';
import { contactFixture } from '../../../test/contacts';
import { jsonResponse, renderWithProviders } from '../../../test/render';
import { channelFixture } from '../../../test/tickets';
import { NewTicketModal } from './NewTicketModal';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
  localStorage.setItem('userId', '5');
  localStorage.setItem('tenantId', '1');
});
afterEach(() => vi.unstubAllGlobals());

/** A phone-only contact, a default Telegram bot and a WhatsApp channel. */
async function pickPhoneOnlyContact() {
  const joao = contactFixture(41, { name: 'João Telefone', number: '5511999990000', telegramId: null });
  fetchMock.mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname === '/api/tickets' && init?.method === 'POST') return jsonResponse({ id: 1 }, 201);
    if (url.pathname === '/api/contacts/')
      return jsonResponse({ contacts: [joao], count: 1, countCapped: false, hasMore: false });
    if (url.pathname === '/api/whatsapp/')
      return jsonResponse([
        channelFixture(7, { name: 'Bot Telegram', type: 'telegram', isDefault: true }),
        channelFixture(8, { name: 'WhatsApp Loja', type: 'baileys', number: '5511900000000' }),
      ]);
    return jsonResponse({ error: 'ERR_NOT_FOUND' }, 404);
  });
  renderWithProviders(<NewTicketModal opened userId={5} onClose={() => undefined} onOpenTicket={() => undefined} />);
  const contact = await screen.findByTestId('new-ticket-contact');
  contact.focus();
  fireEvent.change(contact, { target: { value: 'Jo' } });
  fireEvent.click(await screen.findByRole('option', { name: /João Telefone/, hidden: true }, { timeout: 3000 }));
}

describe('new ticket modal: a channel where the contact has no id', () => {
  it('the default Telegram channel is refused with the reason; submit stays disabled, nothing is sent', async () => {
    await pickPhoneOnlyContact();
    const reason = await screen.findByTestId('new-ticket-unreachable');
    expect(reason).toHaveTextContent('João Telefone não tem identificação na conexão Bot Telegram');
    expect(screen.getByTestId('new-ticket-submit')).toBeDisabled();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });

  it('offers Telegram disabled with why, and WhatsApp opens the ticket', async () => {
    await pickPhoneOnlyContact();
    const channel = screen.getByTestId('new-ticket-channel');
    fireEvent.click(channel);
    const listbox = await waitFor(() => {
      const found = screen
        .getAllByRole('listbox', { hidden: true })
        .find((l) => l.textContent?.includes('WhatsApp Loja'));
      if (!found) throw new Error('no channel listbox');
      return found;
    });
    const telegram = within(listbox).getByRole('option', { name: /Bot Telegram/, hidden: true });
    expect(telegram).toHaveTextContent('Bot Telegram (o contato não tem identificação aqui)');
    expect(telegram).toHaveAttribute('aria-disabled', 'true');
    fireEvent.click(within(listbox).getByRole('option', { name: 'WhatsApp Loja', hidden: true }));
    await waitFor(() => expect(screen.queryByTestId('new-ticket-unreachable')).toBeNull());
    await waitFor(() => expect(screen.getByTestId('new-ticket-submit')).toBeEnabled());
    fireEvent.click(screen.getByTestId('new-ticket-submit'));
    await waitFor(() =>
      expect(fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')?.[1]?.body).toContain('"channelId":8'),
    );
  });
});
