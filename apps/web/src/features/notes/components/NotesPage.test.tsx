/** /notas: rows with ticket, contact, text, author and date, a link to the ticket, search sent to the server. */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TicketNoteDto } from '@conversa/shared';
import { resetApiState } from '../../../lib/api';
import { jsonResponse, renderRoutes } from '../../../test/render';
import { NotesPage } from './NotesPage';

const fetchMock = vi.fn<typeof fetch>();
const note: TicketNoteDto = {
  id: 3,
  notes: 'Cliente pediu retorno',
  ticketId: 42,
  userId: 7,
  mentionedUserIds: [],
  createdAt: '2025-03-01T10:00:00.000Z',
  updatedAt: '2025-03-01T10:00:00.000Z',
  user: { name: 'Ana' },
  ticket: { id: 42, contact: { name: 'Maria Cliente' } },
};

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url) => {
    const search = new URL(String(url), 'http://x').searchParams.get('searchParam') ?? '';
    const rows = search && !'maria'.includes(search.toLowerCase()) ? [] : [note];
    return jsonResponse({ ticketNotes: rows, count: rows.length, hasMore: false });
  });
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
});
afterEach(() => vi.unstubAllGlobals());

describe('NotesPage', () => {
  it('lists the notes with their ticket link, and searches on the server', async () => {
    const { router } = renderRoutes(
      [
        { path: '/notas', element: <NotesPage /> },
        { path: '/atendimento/:ticketId', element: <p>chat</p> },
      ],
      '/notas',
    );
    const row = await screen.findByTestId('note-row-3');
    expect(row).toHaveTextContent('#42');
    expect(row).toHaveTextContent('Maria Cliente');
    expect(row).toHaveTextContent('Cliente pediu retorno');
    expect(row).toHaveTextContent('Ana');
    fireEvent.change(screen.getByTestId('notes-search'), { target: { value: 'zzz' } });
    await waitFor(() => expect(screen.queryByTestId('note-row-3')).toBeNull(), { timeout: 3000 });
    expect(String(fetchMock.mock.calls.at(-1)?.[0])).toContain('searchParam=zzz');
    fireEvent.change(screen.getByTestId('notes-search'), { target: { value: '' } });
    fireEvent.click(within(await screen.findByTestId('note-row-3')).getByTestId('note-open-3'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/atendimento/42'));
  });
});
