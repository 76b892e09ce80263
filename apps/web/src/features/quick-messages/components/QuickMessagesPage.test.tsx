/** /mensagens-rapidas: the list with its files; supervisors and admins edit and delete, agents only read. */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { QuickMessageDto } from '@conversa/shared';
import { resetApiState } from '../../../lib/api';
import { jsonResponse, renderWithProviders } from '../../../test/render';
import { QuickMessagesPage } from './QuickMessagesPage';

const LIST: QuickMessageDto[] = [
  {
    id: 1,
    key: 'ola',
    message: 'Olá {{name}}',
    media: null,
    voice: 'disabled',
    mediaType: null,
    mediaUrl: null,
    isActive: true,
  },
  {
    id: 2,
    key: 'audio',
    message: '',
    media: 'f1.webm',
    voice: 'enabled',
    mediaType: 'audio/webm',
    mediaUrl: 'http://x/api/public/1/f1.webm',
    isActive: true,
  },
];
const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (_url, init) =>
    init?.method === 'DELETE' ? new Response(null, { status: 204 }) : jsonResponse(LIST),
  );
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
  localStorage.setItem('userId', '3');
});
afterEach(() => vi.unstubAllGlobals());

describe('quick messages page', () => {
  it('lists keys, texts and files (a voice note with its play button); an agent gets no edit controls', async () => {
    localStorage.setItem('profile', 'user');
    renderWithProviders(<QuickMessagesPage />);
    const voiceRow = await screen.findByTestId('quick-row-2');
    expect(within(voiceRow).getByText('/audio')).toBeInTheDocument();
    expect(within(voiceRow).getByText('Áudio gravado')).toBeInTheDocument();
    expect(within(voiceRow).getByRole('button', { name: 'Ouvir /audio' })).toBeInTheDocument();
    expect(screen.getByTestId('quick-row-1')).toHaveTextContent('Sem arquivo');
    expect(screen.queryByTestId('quick-new')).toBeNull();
    expect(screen.queryByTestId('quick-edit-1')).toBeNull();
  });

  it('a supervisor deletes after confirming', async () => {
    localStorage.setItem('profile', 'super');
    renderWithProviders(<QuickMessagesPage />);
    expect(await screen.findByTestId('quick-new')).toBeInTheDocument();
    fireEvent.click(await screen.findByTestId('quick-delete-1'));
    fireEvent.click(await screen.findByTestId('confirm-delete'));
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url, init]) => url === '/api/fastreply/1' && init?.method === 'DELETE')).toBe(
        true,
      ),
    );
  });
});
