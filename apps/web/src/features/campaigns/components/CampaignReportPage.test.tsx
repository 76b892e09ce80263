/**
 * /campanhas/:campanhaId/relatorio: the counts, the chart's text alternative, each recipient's state, reason and send
 * time on the company's clock, the truncated note, the CSV/XLSX downloads (authenticated, saved under the server's
 * file name; a failure is told), printing, and the loading, error and empty states.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { campaignReportSchema, type CampaignReport } from '@conversa/shared';
import { resetApiState } from '../../../lib/api';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { jsonResponse, renderRoutes } from '../../../test/render';
import { tenantFixture } from '../../../test/tenants';
import { campaignFixture } from '../campaigns.fixtures';
import { fileNameOf } from '../api/campaign-report';
import { CampaignReportPage } from './CampaignReportPage';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));

const fetchMock = vi.fn<typeof fetch>();
const urls = () => fetchMock.mock.calls.map(([url]) => String(url));

const COUNTS = {
  contactsCount: 9,
  pendentesEnvio: 1,
  pendentesEntrega: 2,
  recebidas: 3,
  lidas: 2,
  failed: 2,
  skipped: 1,
};

function reportFixture(overrides: Partial<CampaignReport> = {}): CampaignReport {
  return campaignReportSchema.parse({
    campaign: campaignFixture(5, { name: 'Natal', status: 'finished', ...COUNTS }),
    counts: COUNTS,
    recipients: [
      {
        contactId: 7,
        name: 'Maria',
        number: '5511999990007',
        state: 'read',
        reason: null,
        messageRandom: 2,
        sentAt: '2026-11-02T12:30:00.000Z',
      },
      {
        contactId: 8,
        name: 'João',
        number: null,
        state: 'skipped',
        reason: 'ERR_CONTACT_BLOCKED',
        messageRandom: null,
        sentAt: null,
      },
      {
        contactId: 9,
        name: 'Ana',
        number: '5511999990009',
        state: 'failed',
        reason: 'SEND_NOT_ON_WHATSAPP',
        messageRandom: 1,
        sentAt: '2026-11-02T12:31:00.000Z',
      },
    ],
    truncated: false,
    generatedAt: '2026-11-03T15:00:00.000Z',
    ...overrides,
  });
}

const CSV_RESPONSE = () =>
  new Response('\ufeffNome;Número\r\n', {
    status: 200,
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="campanha-5.csv"; filename*=UTF-8''campanha-5.csv`,
    },
  });

function serve(report: CampaignReport | (() => Response), exportAnswer: () => Response = CSV_RESPONSE) {
  fetchMock.mockImplementation(async (url) => {
    const path = String(url);
    if (path === '/api/tenants/undefined') return jsonResponse([tenantFixture({ timezone: 'America/Sao_Paulo' })]);
    if (path === '/api/campaigns/5/report') return typeof report === 'function' ? report() : jsonResponse(report);
    if (path.startsWith('/api/campaigns/5/report/export')) return exportAnswer();
    return jsonResponse({ error: 'unexpected' }, 500);
  });
}

const render = () =>
  renderRoutes(
    [{ path: '/campanhas/:campanhaId/relatorio', element: <CampaignReportPage /> }],
    '/campanhas/5/relatorio',
  );

let saved: { name: string; href: string }[];

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.mocked(notifyError).mockClear();
  vi.mocked(notifySuccess).mockClear();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
  localStorage.setItem('profile', 'super');
  saved = [];
  URL.createObjectURL = vi.fn(() => 'blob:report');
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, href: this.href });
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('campaign report page', { timeout: 30_000 }, () => {
  it('shows the title, the count cards, the chart with its figures in words, and each recipient', async () => {
    serve(reportFixture());
    render();
    expect(await screen.findByText('Relatório: Natal')).toBeInTheDocument();
    expect(screen.getByTestId('campaign-status-5')).toHaveTextContent('Concluída');
    const value = (key: string) => screen.getByTestId(`report-count-${key}-value`).textContent;
    expect(['total', 'pendingSend', 'pendingDelivery', 'delivered', 'read', 'failed', 'skipped'].map(value)).toEqual([
      '9',
      '1',
      '2',
      '3',
      '2',
      '2',
      '1',
    ]);

    // Each recipient once: delivered and not read is 3 - 2.
    expect(screen.getByRole('img', { name: /Destinatários por situação/ })).toHaveAccessibleName(
      'Destinatários por situação, 9 no total: Aguardando envio: 1; Enviada: 2; Entregue, não lida: 1; Lida: 2; Falhou: 2; Ignorada: 1',
    );

    const maria = screen.getByTestId('report-row-7');
    expect(within(maria).getByText('5511999990007')).toBeInTheDocument();
    expect(within(maria).getByText('Mensagem 2')).toBeInTheDocument();
    // 12:30 UTC on the company's clock (America/Sao_Paulo).
    await waitFor(() => expect(within(maria).getByText('02/11/2026 09:30')).toBeInTheDocument());
    expect(screen.getByTestId('report-state-7')).toHaveTextContent('Lida');
    expect(screen.getByTestId('report-state-8')).toHaveTextContent('Ignorada');
    expect(screen.getByTestId('report-reason-8')).toHaveTextContent('O contato está bloqueado: não recebe mensagens.');
    expect(screen.getByTestId('report-state-9')).toHaveTextContent('Falhou');
    expect(screen.getByTestId('report-reason-9')).toHaveTextContent('O número não está no WhatsApp.');
    expect(screen.queryByTestId('campaign-report-truncated')).not.toBeInTheDocument();
  });

  it('says when the report lists only the first recipients', async () => {
    serve(reportFixture({ truncated: true, counts: { ...COUNTS, contactsCount: 7200 } }));
    render();
    expect(await screen.findByTestId('campaign-report-truncated')).toHaveTextContent(
      'O relatório mostra os primeiros 3 de 7200 destinatários. A exportação em CSV ou XLSX traz todos.',
    );
  });

  it('downloads the CSV and the XLSX with the token and saves them under the server’s file name', async () => {
    serve(reportFixture());
    render();
    fireEvent.click(await screen.findByTestId('campaign-report-export-csv'));
    await waitFor(() => expect(saved).toEqual([{ name: 'campanha-5.csv', href: 'blob:report' }]));
    const csvCall = fetchMock.mock.calls.find(([url]) => String(url).includes('/report/export'));
    expect(String(csvCall?.[0])).toBe('/api/campaigns/5/report/export?format=csv');
    expect(new Headers(csvCall?.[1]?.headers).get('Authorization')).toBe('Bearer jwt');
    expect(notifySuccess).toHaveBeenCalledWith('Arquivo campanha-5.csv baixado.');

    fireEvent.click(screen.getByTestId('campaign-report-export-xlsx'));
    await waitFor(() => expect(urls()).toContain('/api/campaigns/5/report/export?format=xlsx'));
    // The answer here names a .csv: the server's name is the one saved, whatever was asked.
    await waitFor(() => expect(saved).toHaveLength(2));
  });

  it('tells a failed export and keeps the page', async () => {
    serve(reportFixture(), () => jsonResponse({ error: 'ERR_NO_CAMPAIGN_FOUND' }, 404));
    render();
    fireEvent.click(await screen.findByTestId('campaign-report-export-xlsx'));
    await waitFor(() =>
      expect(notifyError).toHaveBeenCalledWith('Não foi possível exportar o relatório: Campanha não encontrada.'),
    );
    expect(saved).toEqual([]);
    expect(screen.getByTestId('campaign-report-export-xlsx')).not.toBeDisabled();
  });

  it('prints through the browser (its Save as PDF makes the PDF)', async () => {
    const print = vi.fn();
    vi.stubGlobal('print', print);
    serve(reportFixture());
    render();
    fireEvent.click(await screen.findByTestId('campaign-report-print'));
    expect(print).toHaveBeenCalledOnce();
  });

  it('shows an empty campaign, and a failed load with a retry', async () => {
    serve(reportFixture({ recipients: [], counts: { ...COUNTS, contactsCount: 0 } }));
    const first = render();
    expect(await screen.findByText('Esta campanha não tem destinatários.')).toBeInTheDocument();
    expect(screen.getByText('Nenhum destinatário nesta campanha.')).toBeInTheDocument();
    first.unmount();

    let failing = true;
    serve(() => (failing ? jsonResponse({ error: 'ERR_NO_CAMPAIGN_FOUND' }, 404) : jsonResponse(reportFixture())));
    render();
    expect(await screen.findByText('Campanha não encontrada.')).toBeInTheDocument();
    failing = false;
    fireEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText('Relatório: Natal')).toBeInTheDocument();
  });
});

describe('fileNameOf', () => {
  it('reads the UTF-8 name first, then the quoted one', () => {
    expect(fileNameOf(`attachment; filename="relat_rio.csv"; filename*=UTF-8''relat%C3%B3rio.csv`)).toBe(
      'relatório.csv',
    );
    expect(fileNameOf('attachment; filename="campanha-5.xlsx"')).toBe('campanha-5.xlsx');
    expect(fileNameOf(null)).toBeNull();
  });
});
