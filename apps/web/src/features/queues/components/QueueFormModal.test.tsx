/** The queue form: the spec's required text before any call, POST/PUT bodies, ERR_QUEUE_EXISTS under the name. */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetApiState } from '../../../lib/api';
import { jsonResponse, renderWithProviders, requestBody, typeInto } from '../../../test/render';
import { QueueFormModal } from './QueueFormModal';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));
const { notifyError, notifySuccess } = await import('../../../lib/notify');

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.mocked(notifyError).mockClear();
  vi.mocked(notifySuccess).mockClear();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
});
afterEach(() => vi.unstubAllGlobals());

describe('queue form', { timeout: 30_000 }, () => {
  it('requires the name ({attribute} é obrigatório) without calling the server', async () => {
    renderWithProviders(<QueueFormModal opened onClose={vi.fn()} />);
    typeInto('queue-form-name', '   ');
    fireEvent.click(screen.getByTestId('queue-form-submit'));
    expect(await screen.findByText('Nome da fila é obrigatório')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('creates with the trimmed name and the active switch', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ id: 1, queue: 'Vendas', isActive: false, distribution: 'N' }, 201));
    const onClose = vi.fn();
    renderWithProviders(<QueueFormModal opened onClose={onClose} />);
    typeInto('queue-form-name', ' Vendas ');
    fireEvent.click(screen.getByTestId('queue-form-active'));
    fireEvent.click(screen.getByTestId('queue-form-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/queue/');
    expect(requestBody(fetchMock, 0)).toEqual({ queue: 'Vendas', isActive: false, distribution: 'N' });
    expect(notifySuccess).toHaveBeenCalledWith('Fila criada.');
  });

  it('edits with PUT; a duplicate name shows the catalogue text under the field', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ error: 'ERR_QUEUE_EXISTS' }, 409));
    const onClose = vi.fn();
    renderWithProviders(
      <QueueFormModal
        opened
        onClose={onClose}
        queue={{ id: 7, queue: 'Suporte', isActive: true, distribution: 'N' }}
      />,
    );
    expect(screen.getByTestId('queue-form-name')).toHaveValue('Suporte');
    typeInto('queue-form-name', 'Vendas');
    fireEvent.click(screen.getByTestId('queue-form-submit'));
    await waitFor(() => expect(notifyError).toHaveBeenCalledWith('Já existe uma fila com este nome.'));
    expect(screen.getByTestId('queue-form-name')).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/queue/7');
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe('PUT');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('shows the stored distribution and sends the one chosen (N none, R random, B balanced)', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ id: 7, queue: 'Suporte', isActive: true, distribution: 'B' }));
    const onClose = vi.fn();
    renderWithProviders(
      <QueueFormModal
        opened
        onClose={onClose}
        queue={{ id: 7, queue: 'Suporte', isActive: true, distribution: 'R' }}
      />,
    );
    expect(screen.getByTestId('queue-form-distribution')).toHaveValue('Aleatória');
    await waitFor(() => expect(screen.getByTestId('queue-form-name')).toHaveFocus());
    fireEvent.click(screen.getByTestId('queue-form-distribution'));
    fireEvent.click(await findOption('queue-form-distribution', 'Equilibrada'));
    fireEvent.click(screen.getByTestId('queue-form-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/queue/7');
    expect(requestBody(fetchMock, 0)).toEqual({ queue: 'Suporte', isActive: true, distribution: 'B' });
  });
});

/** An option of a select's listbox (jsdom lays nothing out: the options count as hidden). */
async function findOption(testId: string, name: string): Promise<HTMLElement> {
  const listbox = await waitFor(() => {
    const id = screen.getByTestId(testId).getAttribute('aria-controls');
    const element = id ? document.getElementById(id) : null;
    if (!element) throw new Error(`${testId} has no open listbox`);
    return element;
  });
  const option = within(listbox)
    .getAllByRole('option', { hidden: true })
    .find((item) => item.textContent === name);
  if (!option) throw new Error(`no option ${name}`);
  return option;
}
