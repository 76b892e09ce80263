/**
 * The progress card: GET /bulk/{id} every 2 s while the batch is processing, no more once it is finished; the counts
 * and the bar follow; cancel asks first, POSTs /bulk/{id}/cancel and stops the polling.
 */
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetApiState } from '../../../lib/api';
import { createTestQueryClient, jsonResponse, renderWithProviders } from '../../../test/render';
import { bulkKeys, type BulkBatchDto } from '../api/bulk';
import { batchFixture } from '../bulk.fixtures';
import { BatchProgressCard } from './BatchProgressCard';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));

const fetchMock = vi.fn<typeof fetch>();
const calls = () => fetchMock.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}`);
const polls = () => calls().filter((call) => call === 'GET /api/bulk/7');

const START = batchFixture(7, { total: 10, pendentesEnvio: 10 });
const HALF = batchFixture(7, { total: 10, pendentesEnvio: 5, pendentesEntrega: 1, recebidas: 3, lidas: 2, failed: 1 });
const DONE = batchFixture(7, {
  status: 'finished',
  total: 10,
  pendentesEnvio: 0,
  pendentesEntrega: 2,
  recebidas: 6,
  lidas: 4,
  failed: 1,
  skipped: 1,
  finishedAt: '2026-11-27T12:10:00.000Z',
});

/** The card as a send leaves it: the POST's batch already in the cache. */
function renderCard(first: BulkBatchDto = START) {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(bulkKeys.detail(first.id), first);
  return renderWithProviders(<BatchProgressCard batchId={first.id} />, queryClient);
}

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('batch progress card', { timeout: 30_000 }, () => {
  it('polls every 2 s while processing and stops once finished', async () => {
    vi.useFakeTimers();
    const answers = [HALF, DONE];
    fetchMock.mockImplementation(async () => jsonResponse(answers.shift() ?? DONE));
    renderCard();
    expect(screen.getByTestId('bulk-progress-text')).toHaveTextContent('0 de 10 processados (0%)');
    expect(screen.getByTestId('bulk-progress-text')).toHaveAttribute('aria-live', 'polite');
    await advance(1900);
    expect(polls()).toHaveLength(0);
    await advance(200);
    expect(polls()).toHaveLength(1);
    expect(screen.getByTestId('bulk-progress-text')).toHaveTextContent('5 de 10 processados (50%)');
    expect(screen.getByRole('progressbar', { hidden: true })).toHaveAttribute('aria-valuenow', '50');
    expect(screen.getByTestId('bulk-count-sent')).toHaveTextContent('4');
    expect(screen.getByTestId('bulk-count-read')).toHaveTextContent('2');
    await advance(2000);
    expect(polls()).toHaveLength(2);
    expect(screen.getByTestId('bulk-progress-status')).toHaveTextContent('Concluído');
    expect(screen.getByTestId('bulk-progress-text')).toHaveTextContent('10 de 10 processados (100%) · Concluído');
    expect(screen.getByTestId('bulk-count-sent')).toHaveTextContent('8');
    expect(screen.getByTestId('bulk-count-delivered')).toHaveTextContent('6');
    expect(screen.getByTestId('bulk-count-read')).toHaveTextContent('4');
    expect(screen.getByTestId('bulk-count-failed')).toHaveTextContent('1');
    expect(screen.getByTestId('bulk-count-skipped')).toHaveTextContent('1');
    expect(screen.queryByTestId('bulk-progress-cancel')).toBeNull();
    await advance(10_000);
    expect(polls()).toHaveLength(2);
  });

  it('a finished batch is not polled at all', async () => {
    vi.useFakeTimers();
    fetchMock.mockImplementation(async () => jsonResponse(DONE));
    renderCard(DONE);
    await advance(10_000);
    expect(polls()).toHaveLength(0);
    expect(screen.getByRole('progressbar', { hidden: true })).toHaveAccessibleName(
      'Progresso do envio nº 7: 10 de 10 processados (100%)',
    );
  });

  it('cancel asks first, POSTs /bulk/{id}/cancel and shows the canceled batch', async () => {
    fetchMock.mockImplementation(async (url, init) =>
      String(url) === '/api/bulk/7/cancel' && init?.method === 'POST'
        ? jsonResponse({ ...HALF, status: 'canceled' })
        : jsonResponse(START),
    );
    renderCard();
    fireEvent.click(screen.getByTestId('bulk-progress-cancel'));
    expect(calls()).not.toContain('POST /api/bulk/7/cancel');
    fireEvent.click(await screen.findByTestId('confirm-delete'));
    await waitFor(() => expect(calls()).toContain('POST /api/bulk/7/cancel'));
    await waitFor(() => expect(screen.getByTestId('bulk-progress-status')).toHaveTextContent('Cancelado'));
    expect(screen.queryByTestId('bulk-progress-cancel')).toBeNull();
  });
});
