/** /protocolos: rows with protocol, contact (name and number), agent and date; search and day go to the server. */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TicketProtocolDto } from '@conversa/shared';
import { resetApiState } from '../../../lib/api';
import { jsonResponse, renderRoutes } from '../../../test/render';
import { ProtocolsPage } from './ProtocolsPage';

const fetchMock = vi.fn<typeof fetch>();
const row: TicketProtocolDto = {
  id: 9,
  protocol: '20250301-00042',
  ticketId: 42,
  userId: 7,
  createdAt: '2025-03-01T10:00:00.000Z',
  user: { name: 'Ana' },
  ticket: { id: 42, contact: { name: 'Maria Cliente', number: '5511999990000' } },
};
const lastQuery = () => new URL(String(fetchMock.mock.calls.at(-1)?.[0]), 'http://x').searchParams;

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  fetchMock.mockImplementation(async () => jsonResponse({ ticketProtocols: [row], count: 1, hasMore: false }));
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
});
afterEach(() => vi.unstubAllGlobals());

describe('ProtocolsPage', () => {
  it('lists protocols and sends the search and the typed day (yyyy-MM-dd) to the server', async () => {
    renderRoutes([{ path: '/protocolos', element: <ProtocolsPage /> }], '/protocolos');
    const found = await screen.findByTestId('protocol-row-9');
    for (const text of ['20250301-00042', 'Maria Cliente', '5511999990000', 'Ana'])
      expect(found).toHaveTextContent(text);
    fireEvent.change(screen.getByTestId('protocols-search'), { target: { value: '2025' } });
    await waitFor(() => expect(lastQuery().get('searchParam')).toBe('2025'), { timeout: 3000 });
    const day = screen.getByTestId('protocols-date');
    fireEvent.change(day, { target: { value: '01/03/2025' } });
    fireEvent.blur(day);
    await waitFor(() => expect(lastQuery().get('date')).toBe('2025-03-01'));
    expect(lastQuery().get('searchParam')).toBe('2025');
  });
});
