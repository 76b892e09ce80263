/**
 * /massa: the two built tabs are real tabs that are routes (and nothing for the spec's later ones), and the recent
 * batches below them: creation on the company's clock, channel name, total, progress and status; the empty state;
 * a failed load with its retry.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Navigate } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetApiState } from '../../../lib/api';
import { channelFixture } from '../../../test/channels';
import { jsonResponse, renderRoutes } from '../../../test/render';
import { tenantFixture } from '../../../test/tenants';
import { batchFixture } from '../bulk.fixtures';
import { MassSendingLayout } from './MassSendingLayout';

const fetchMock = vi.fn<typeof fetch>();
const listCalls = () => fetchMock.mock.calls.filter(([url]) => String(url) === '/api/bulk/');

function serve(list: () => Response) {
  fetchMock.mockImplementation(async (url) => {
    const path = String(url);
    if (path === '/api/tenants/undefined') return jsonResponse([tenantFixture({ timezone: 'America/Sao_Paulo' })]);
    if (path === '/api/whatsapp/')
      return jsonResponse([
        channelFixture(3, { name: 'Vendas', type: 'baileys' }),
        channelFixture(4, { name: 'Bot Telegram' }),
      ]);
    if (path === '/api/bulk/') return list();
    return jsonResponse({ error: 'unexpected' }, 500);
  });
}

// The same tree as app/router.tsx's /massa (features do not import the app).
const render = (path: string) =>
  renderRoutes(
    [
      {
        path: '/massa',
        children: [
          { index: true, element: <Navigate to="texto" replace /> },
          {
            element: <MassSendingLayout />,
            children: [
              { path: 'texto', element: <p>text tab</p> },
              { path: 'textovariavel', element: <p>variables tab</p> },
            ],
          },
        ],
      },
    ],
    path,
  );

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
});
afterEach(() => vi.unstubAllGlobals());

describe('mass sending layout', { timeout: 30_000 }, () => {
  it('has the text and variables tabs as routes, the current one selected with its panel', async () => {
    serve(() => jsonResponse([]));
    const { router } = render('/massa');
    await waitFor(() => expect(router.state.location.pathname).toBe('/massa/texto'));
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Texto', 'Texto com variáveis']);
    expect(screen.getByRole('tab', { name: 'Texto' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel')).toHaveTextContent('text tab');
    fireEvent.click(screen.getByRole('tab', { name: 'Texto com variáveis' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/massa/textovariavel'));
    expect(screen.getByRole('tabpanel')).toHaveTextContent('variables tab');
    expect(screen.getByRole('tab', { name: 'Texto com variáveis' })).toHaveAttribute('aria-selected', 'true');
  });

  it('lists the recent batches on the company clock with channel, total, progress and status', async () => {
    serve(() =>
      jsonResponse([
        batchFixture(9, { total: 10, pendentesEnvio: 4, createdAt: '2026-11-27T12:00:00.000Z' }),
        batchFixture(8, { status: 'finished', channelId: 99, total: 5, pendentesEnvio: 0 }),
      ]),
    );
    render('/massa/texto');
    const row = await screen.findByTestId('bulk-row-9');
    // 12:00 UTC is 09:00 in São Paulo.
    await waitFor(() => expect(screen.getByTestId('bulk-row-created-9')).toHaveTextContent('27/11/2026 09:00'));
    await waitFor(() => expect(within(row).getByText('Vendas')).toBeInTheDocument());
    expect(within(row).getByText('10')).toBeInTheDocument();
    expect(within(row).getByRole('progressbar', { hidden: true })).toHaveAccessibleName(
      'Progresso do envio nº 9: 6 de 10 processados (60%)',
    );
    expect(screen.getByTestId('bulk-row-status-9')).toHaveTextContent('Enviando');
    expect(within(screen.getByTestId('bulk-row-8')).getByText('#99')).toBeInTheDocument();
    expect(screen.getByTestId('bulk-row-status-8')).toHaveTextContent('Concluído');
    expect(screen.getByRole('heading', { name: 'Envios recentes' })).toBeInTheDocument();
  });

  it('shows the empty state', async () => {
    serve(() => jsonResponse([]));
    render('/massa/texto');
    expect(await screen.findByText('Nenhum envio em massa ainda.')).toBeInTheDocument();
  });

  it('a failed load offers a retry that reads the list again', async () => {
    let fail = true;
    serve(() => (fail ? jsonResponse({ error: 'ERR_VALIDATION' }, 400) : jsonResponse([batchFixture(4)])));
    render('/massa/texto');
    expect(await screen.findByRole('alert')).toHaveTextContent('Não foi possível carregar');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByTestId('bulk-row-4')).toBeInTheDocument();
    expect(listCalls()).toHaveLength(2);
  });
});
