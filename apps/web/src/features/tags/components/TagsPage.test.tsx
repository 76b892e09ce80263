/** The tags screen: colour swatches, the empty state, delete after confirmation, the server's 409 text as a toast. */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetApiState } from '../../../lib/api';
import { createQueryClient } from '../../../lib/query-client';
import { jsonResponse, renderWithProviders } from '../../../test/render';
import { TagsPage } from './TagsPage';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));
const { notifyError, notifySuccess } = await import('../../../lib/notify');

const VIP = { id: 3, tag: 'VIP', color: '#c92a2a', isActive: true };
const OLD = { id: 4, tag: 'Antigo', color: '#495057', isActive: false };
const fetchMock = vi.fn<typeof fetch>();
const calls = () => fetchMock.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}`);

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.mocked(notifyError).mockClear();
  vi.mocked(notifySuccess).mockClear();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
});
afterEach(() => vi.unstubAllGlobals());

describe('tags page', () => {
  it('lists every tag (isActive=null) with its colour and state', async () => {
    fetchMock.mockResolvedValue(jsonResponse([OLD, VIP]));
    renderWithProviders(<TagsPage />);
    expect(await screen.findByTestId('tag-row-3')).toHaveTextContent('VIP#c92a2aAtivo');
    expect(screen.getByTestId('tag-row-4')).toHaveTextContent('Antigo#495057Inativo');
    expect(calls()).toEqual(['GET /api/tags/?isActive=null']);
  });

  it('shows the empty state', async () => {
    fetchMock.mockResolvedValue(jsonResponse([]));
    renderWithProviders(<TagsPage />);
    expect(await screen.findByText(/Nenhuma etiqueta cadastrada/)).toBeInTheDocument();
  });

  it('deletes after confirmation; a tag with contacts shows the server’s text and stays', async () => {
    fetchMock.mockImplementation(async (_url, init) =>
      init?.method === 'DELETE' ? jsonResponse({ error: 'ERR_TAG_CONTACTS_EXISTS' }, 409) : jsonResponse([VIP]),
    );
    renderWithProviders(<TagsPage />, createQueryClient());
    fireEvent.click(await screen.findByTestId('tag-delete-3'));
    expect(await screen.findByText('Excluir a etiqueta "VIP"? Esta ação não pode ser desfeita.')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('confirm-delete'));
    await waitFor(() => expect(notifyError).toHaveBeenCalledWith('A etiqueta ainda possui contatos.'));
    expect(calls()).toContain('DELETE /api/tags/3');
    expect(notifySuccess).not.toHaveBeenCalled();
    expect(screen.getByTestId('tag-row-3')).toBeInTheDocument();
  });

  it('a confirmed delete reads the list again', async () => {
    let tags = [VIP];
    fetchMock.mockImplementation(async (_url, init) => {
      if (init?.method === 'DELETE') {
        tags = [];
        return new Response(null, { status: 204 });
      }
      return jsonResponse(tags);
    });
    renderWithProviders(<TagsPage />, createQueryClient());
    fireEvent.click(await screen.findByTestId('tag-delete-3'));
    fireEvent.click(await screen.findByTestId('confirm-delete'));
    await waitFor(() => expect(notifySuccess).toHaveBeenCalledWith('Etiqueta excluída.'));
    await waitFor(() => expect(screen.queryByTestId('tag-row-3')).not.toBeInTheDocument());
  });
});
