import { useState } from 'react';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderHook } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ContactImportProgress } from '@conversa/shared';
import { resetApiState } from '../../../lib/api';
import { startRealtimeSync } from '../../../lib/realtime-sync';
import { createTestQueryClient, jsonResponse, Providers, renderWithProviders } from '../../../test/render';
import { fakeSocket } from '../../../test/socket';
import { useImportProgress } from '../hooks/use-import-progress';
import { ImportContactsModal } from './ImportContactsModal';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));
const { notifyError } = await import('../../../lib/notify');

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.mocked(notifyError).mockClear();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
});
afterEach(() => vi.unstubAllGlobals());

const progress = (overrides: Partial<ContactImportProgress>): ContactImportProgress => ({
  action: 'progress',
  importId: 'imp-7',
  total: 4,
  processed: 0,
  created: 0,
  updated: 0,
  failed: 0,
  ...overrides,
});

function Harness({ onStarted }: { onStarted?: (id: string) => void }) {
  const [importId, setImportId] = useState<string | null>(null);
  return (
    <ImportContactsModal
      opened
      onClose={vi.fn()}
      importId={importId}
      onStarted={(id) => {
        onStarted?.(id);
        setImportId(id);
      }}
      onReset={() => setImportId(null)}
      canListUsers={false}
    />
  );
}

const csv = (name: string, type = 'text/csv') => new File(['Nome,Número\nMaria,5511912345678\n'], name, { type });
const dropzoneInput = () =>
  screen.getByTestId('contacts-import-dropzone').querySelector<HTMLInputElement>('input[type=file]')!;

describe('contact import', () => {
  it('feeds socket events into the progress of its import id', async () => {
    const queryClient = createTestQueryClient();
    const { socket, emit } = fakeSocket();
    startRealtimeSync(socket, queryClient, 3);
    const { result } = renderHook(() => useImportProgress('imp-7'), {
      wrapper: ({ children }) => <Providers queryClient={queryClient}>{children}</Providers>,
    });
    expect(result.current).toBeUndefined();
    act(() => emit('3:contactImport', progress({ processed: 2, created: 2 })));
    await waitFor(() => expect(result.current).toMatchObject({ action: 'progress', processed: 2 }));
    act(() => emit('3:contactImport', progress({ importId: 'other', processed: 4 })));
    act(() => emit('3:contactImport', progress({ action: 'done', processed: 4, created: 3, failed: 1 })));
    await waitFor(() => expect(result.current).toMatchObject({ action: 'done', processed: 4, created: 3, failed: 1 }));
  });

  it('uploads the file, then shows the progress and the bad rows from socket events', async () => {
    const queryClient = createTestQueryClient();
    const { socket, emit } = fakeSocket();
    startRealtimeSync(socket, queryClient, 3);
    fetchMock.mockResolvedValueOnce(jsonResponse({ importId: 'imp-7' }, 202));
    const user = userEvent.setup({ applyAccept: false });
    renderWithProviders(<Harness />, queryClient);
    expect(screen.getByTestId('contacts-import-submit')).toBeDisabled();
    await user.upload(dropzoneInput(), csv('contatos.csv'));
    expect(await screen.findByTestId('contacts-import-file')).toHaveTextContent('contatos.csv');
    await user.click(screen.getByTestId('contacts-import-submit'));

    const bar = await screen.findByTestId('contacts-import-progress');
    expect(bar).toHaveAttribute('data-state', 'waiting');
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/contacts/upload');
    const body = init?.body as FormData;
    expect((body.get('file') as File).name).toBe('contatos.csv');
    expect(body.get('validContact')).toBe('false');
    expect(body.get('tags')).toBeNull();

    act(() => emit('3:contactImport', progress({ processed: 2, total: 4, created: 1, updated: 1 })));
    await waitFor(() => expect(bar).toHaveAttribute('data-state', 'progress'));
    expect(screen.getByText('2 de 4 linhas processadas')).toBeInTheDocument();
    expect(screen.getByTestId('contacts-import-updated')).toHaveTextContent('1');

    act(() =>
      emit(
        '3:contactImport',
        progress({
          action: 'done',
          processed: 4,
          created: 2,
          updated: 1,
          failed: 1,
          errors: [{ row: 3, reason: 'ERR_WAPP_INVALID_CONTACT', value: '123' }],
        }),
      ),
    );
    await waitFor(() => expect(bar).toHaveAttribute('data-state', 'done'));
    const errors = screen.getByTestId('contacts-import-errors');
    expect(within(errors).getByText('Número inválido ou sem WhatsApp')).toBeInTheDocument();
    expect(within(errors).getByText('123')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('contacts-import-another'));
    expect(await screen.findByTestId('contacts-import-dropzone')).toBeInTheDocument();
  });

  it('sends the chosen tags as a comma list of ids, none when nothing is chosen', async () => {
    fetchMock.mockImplementation(async (url) =>
      String(url).startsWith('/api/tags/')
        ? jsonResponse([
            { id: 3, tag: 'VIP', color: '#c92a2a', isActive: true },
            { id: 5, tag: 'Lead', color: '#1864ab', isActive: true },
          ])
        : jsonResponse({ importId: 'imp-9' }, 202),
    );
    const user = userEvent.setup({ applyAccept: false });
    renderWithProviders(<Harness />);
    await user.upload(dropzoneInput(), csv('contatos.csv'));
    fireEvent.click(screen.getByTestId('contacts-import-tags'));
    fireEvent.click(await screen.findByRole('option', { name: 'VIP', hidden: true }));
    fireEvent.click(screen.getByRole('option', { name: 'Lead', hidden: true }));
    await user.click(screen.getByTestId('contacts-import-submit'));
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/contacts/upload')).toBe(true),
    );
    const upload = fetchMock.mock.calls.find(([url]) => String(url) === '/api/contacts/upload')!;
    expect((upload[1]?.body as FormData).get('tags')).toBe('3,5');
  });

  it('rejects a file of another type with the spec text', async () => {
    const user = userEvent.setup({ applyAccept: false });
    renderWithProviders(<Harness />);
    await user.upload(dropzoneInput(), csv('notes.txt', 'text/plain'));
    await waitFor(() =>
      expect(notifyError).toHaveBeenCalledWith('Arquivo rejeitado devido ao tamanho ou tipo incompatível.'),
    );
    expect(screen.queryByTestId('contacts-import-file')).not.toBeInTheDocument();
    expect(screen.getByTestId('contacts-import-submit')).toBeDisabled();
  });

  it('tells a refused upload with the import error text', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ error: 'ERR_VALIDATION' }, 400));
    const user = userEvent.setup({ applyAccept: false });
    const onStarted = vi.fn();
    renderWithProviders(<Harness onStarted={onStarted} />);
    await user.upload(dropzoneInput(), csv('contatos.csv'));
    await user.click(await screen.findByTestId('contacts-import-submit'));
    await waitFor(() =>
      expect(notifyError).toHaveBeenCalledWith('Ops! Verifique os erros...', 'Erro ao importar contatos.'),
    );
    expect(onStarted).not.toHaveBeenCalled();
  });
});
