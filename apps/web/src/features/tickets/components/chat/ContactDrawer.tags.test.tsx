/**
 * The chat's contact drawer applies tags at once (PUT /contact-tags/{id}); the saved contact's tags reach the loaded
 * ticket rows and the ticket detail of that contact (a ticket's tags are its contact's), not other contacts' tickets.
 */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TicketDto } from '@conversa/shared';
import { resetApiState } from '../../../../lib/api';
import { queryKeys } from '../../../../lib/query-keys';
import { contactFixture } from '../../../../test/contacts';
import { createTestQueryClient, jsonResponse, renderWithProviders } from '../../../../test/render';
import { ticketDtoFixture, ticketFixture, ticketPage } from '../../../../test/tickets';
import type { TicketPages } from '../../hooks/ticket-list-cache';
import { ContactDrawer } from './ContactDrawer';

vi.mock('../../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));
const { notifySuccess } = await import('../../../../lib/notify');

const VIP = { id: 1, tag: 'VIP', color: '#c92a2a', isActive: true };
const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.mocked(notifySuccess).mockClear();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
});
afterEach(() => vi.unstubAllGlobals());

describe('chat contact drawer tags', () => {
  it('saves a picked tag at once and shows it on the contact’s tickets', async () => {
    const contact = contactFixture(4, { name: 'Maria' });
    const saved = { ...contact, tags: [{ id: VIP.id, tag: VIP.tag, color: VIP.color }] };
    fetchMock.mockImplementation(async (url, init) => {
      const path = String(url);
      if (path.startsWith('/api/tags/')) return jsonResponse([VIP]);
      if (path === '/api/contact-tags/4' && init?.method === 'PUT') return jsonResponse(saved);
      return jsonResponse({ error: 'unexpected' }, 500);
    });
    const queryClient = createTestQueryClient();
    const filter = { status: ['open'] };
    const listKey = queryKeys.ticketsList(filter);
    queryClient.setQueryData<TicketPages>(listKey, {
      pages: [ticketPage([ticketFixture(7, { contactId: 4 }), ticketFixture(8, { contactId: 5 })])],
      pageParams: [1],
    });
    queryClient.setQueryData<TicketDto>(queryKeys.ticket(7), ticketDtoFixture(7, { contactId: 4 }));
    renderWithProviders(<ContactDrawer contact={contact} ticketId={7} opened onClose={vi.fn()} />, queryClient);

    fireEvent.click(screen.getByTestId('chat-contact-tags'));
    fireEvent.click(await screen.findByRole('option', { name: 'VIP', hidden: true }));

    await waitFor(() => expect(notifySuccess).toHaveBeenCalledWith('Etiquetas salvas.'));
    const put = fetchMock.mock.calls.find(([url]) => String(url) === '/api/contact-tags/4');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ tags: [1] });
    const rows = queryClient.getQueryData<TicketPages>(listKey)!.pages[0]!.tickets;
    expect(rows.find((row) => row.id === 7)?.tags).toEqual(saved.tags);
    expect(rows.find((row) => row.id === 8)?.tags).toEqual([]);
    const detail = queryClient.getQueryData<TicketDto>(queryKeys.ticket(7))!;
    expect(detail.tags).toEqual(saved.tags);
    expect(detail.contact.tags).toEqual(saved.tags);
  });
});
