/**
 * The header's bell: the unread count in its name and badge, a mention written in the reader's language (not the
 * stored pt-BR text), clicking it marks it read and opens its ticket; "mark all read" calls the server once.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NotificationDto } from '@conversa/shared';
import { resetApiState } from '../../lib/api';
import { jsonResponse, renderRoutes } from '../../test/render';
import { NotificationBell } from './NotificationBell';

const fetchMock = vi.fn<typeof fetch>();
const keyOf = (url: unknown, init?: RequestInit) =>
  `${init?.method ?? 'GET'} ${String(url)
    .replace(/^\/api/, '')
    .replace(/\?.*$/, '')}`;

const mention: NotificationDto = {
  id: 11,
  message: 'Chefe mencionou você no ticket #42: veja o pedido',
  userId: 7,
  isRead: false,
  createdAt: '2025-03-01T10:00:00.000Z',
  user: { name: 'Eu' },
  senderId: 3,
  data: { kind: 'mention', ticketId: 42, noteId: 5, authorName: 'Chefe', excerpt: 'veja o pedido' },
};
const plain: NotificationDto = {
  ...mention,
  id: 10,
  message: 'Manutenção às 22h',
  userId: null,
  isRead: true,
  user: null,
  data: {},
};

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url, init) => {
    const key = keyOf(url, init);
    if (key === 'GET /notifications')
      return jsonResponse({ notifications: [mention, plain], count: 2, unread: 1, hasMore: false });
    if (key === 'PUT /notifications/11') return jsonResponse({ ...mention, isRead: true });
    if (key === 'PUT /notifications/readAll') return jsonResponse({ updated: 1 });
    return jsonResponse({ error: 'ERR_NOT_MOCKED' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
});
afterEach(() => vi.unstubAllGlobals());

const renderBell = () =>
  renderRoutes(
    [
      { path: '/', element: <NotificationBell /> },
      { path: '/atendimento/:ticketId', element: <p>chat aberto</p> },
    ],
    '/',
  );

describe('NotificationBell', () => {
  it('names the unread count, writes a mention in the reader language and opens its ticket, marked read', async () => {
    const { router } = renderBell();
    const bell = screen.getByTestId('notification-bell');
    await waitFor(() => expect(bell).toHaveAccessibleName('Notificações não lidas: 1'));
    fireEvent.click(bell);
    const list = await screen.findByTestId('notification-list');
    const item = within(list).getByTestId('notification-11');
    // The test language is pt: the text is written from the data, not the stored pt-BR message.
    expect(item).toHaveTextContent('Chefe mencionou você no ticket #42: veja o pedido');
    expect(item).toHaveAttribute('data-unread');
    expect(within(list).getByTestId('notification-10')).not.toHaveAttribute('data-unread');
    fireEvent.click(item);
    await waitFor(() => expect(router.state.location.pathname).toBe('/atendimento/42'));
    expect(fetchMock.mock.calls.map(([url, init]) => keyOf(url, init))).toContain('PUT /notifications/11');
  });

  it('marks all read in one call; a read tenant-wide notice without a ticket stays on the list', async () => {
    const { router } = renderBell();
    fireEvent.click(screen.getByTestId('notification-bell'));
    const readAll = await screen.findByTestId('notification-read-all');
    await waitFor(() => expect(readAll).toBeEnabled());
    fireEvent.click(readAll);
    await waitFor(() =>
      expect(fetchMock.mock.calls.map(([url, init]) => keyOf(url, init))).toContain('PUT /notifications/readAll'),
    );
    fireEvent.click(screen.getByTestId('notification-10'));
    expect(router.state.location.pathname).toBe('/');
    expect(fetchMock.mock.calls.map(([url, init]) => keyOf(url, init))).not.toContain('PUT /notifications/10');
  });
});
