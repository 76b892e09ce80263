/** The queues list shows each queue's distribution mode by name. */
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetApiState } from '../../../lib/api';
import { jsonResponse, renderWithProviders } from '../../../test/render';
import { QueuesPage } from './QueuesPage';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url) =>
    String(url) === '/api/queue/'
      ? jsonResponse([
          { id: 1, queue: 'Vendas', isActive: true, distribution: 'B' },
          { id: 2, queue: 'Suporte', isActive: true, distribution: 'R' },
          { id: 3, queue: 'Financeiro', isActive: false, distribution: 'N' },
        ])
      : jsonResponse({ error: 'ERR_NOT_MOCKED' }, 404),
  );
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
});
afterEach(() => vi.unstubAllGlobals());

describe('queues list', { timeout: 30_000 }, () => {
  it('has a distribution column naming each mode', async () => {
    renderWithProviders(<QueuesPage />);
    expect(await screen.findByTestId('queue-distribution-1')).toHaveTextContent('Equilibrada');
    expect(screen.getByTestId('queue-distribution-2')).toHaveTextContent('Aleatória');
    expect(screen.getByTestId('queue-distribution-3')).toHaveTextContent('Nenhuma');
    const table = screen.getByTestId('queues-table');
    expect(within(table).getByRole('columnheader', { name: 'Distribuição automática' })).toBeInTheDocument();
  });
});
