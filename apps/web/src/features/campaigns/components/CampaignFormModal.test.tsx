/**
 * The campaign form: the spec's required fields (name, channel, message) and a start not in the past, checked before
 * any call; a create POSTs the JSON body with the start on the company's wall clock; an edit PUTs it.
 */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetApiState } from '../../../lib/api';
import { channelFixture } from '../../../test/channels';
import { jsonResponse, renderWithProviders, typeInto } from '../../../test/render';
import { tenantFixture } from '../../../test/tenants';
import { wallClock } from '../campaign-dates';
import { campaignFixture } from '../campaigns.fixtures';
import { CampaignFormModal } from './CampaignFormModal';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));
const { notifyError } = await import('../../../lib/notify');

const fetchMock = vi.fn<typeof fetch>();
const saves = () =>
  fetchMock.mock.calls.filter(([url, init]) => String(url).startsWith('/api/campaigns') && init?.method !== 'GET');
const savedBody = (index = 0) => JSON.parse(String(saves()[index]?.[1]?.body)) as Record<string, unknown>;

function serve(saveResponse: () => Response = () => jsonResponse(campaignFixture(9))) {
  fetchMock.mockImplementation(async (url, init) => {
    const path = String(url);
    if (path === '/api/tenants/undefined') return jsonResponse([tenantFixture({ timezone: 'America/Sao_Paulo' })]);
    if (path === '/api/whatsapp/') return jsonResponse([channelFixture(3, { name: 'Vendas' })]);
    if (path === '/api/queue/') return jsonResponse([{ id: 2, queue: 'Comercial', isActive: true, distribution: 'N' }]);
    if (path.startsWith('/api/campaigns') && init?.method !== 'GET') return saveResponse();
    return jsonResponse({ error: 'unexpected' }, 500);
  });
}

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.mocked(notifyError).mockClear();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
});
afterEach(() => vi.unstubAllGlobals());

async function pickChannel() {
  fireEvent.click(screen.getByTestId('campaign-form-session'));
  fireEvent.click(await screen.findByRole('option', { name: 'Vendas', hidden: true }));
}

describe('campaign form', { timeout: 30_000 }, () => {
  it('requires name, channel and a message, and refuses a past start, before calling the server', async () => {
    serve();
    renderWithProviders(<CampaignFormModal opened onClose={vi.fn()} />);
    fireEvent.click(await screen.findByTestId('campaign-form-submit'));
    expect(await screen.findByText('Nome é obrigatório')).toBeInTheDocument();
    expect(screen.getByText('Conexão é obrigatório')).toBeInTheDocument();
    expect(screen.getByText('Mensagem é obrigatório')).toBeInTheDocument();
    // Today at 00:00 on the company's clock has passed (the calendar offers no earlier day).
    const [year, month, day] = wallClock(new Date(), 'America/Sao_Paulo').slice(0, 10).split('-');
    typeInto('campaign-form-day', `${day}/${month}/${year}`);
    typeInto('campaign-form-time', '00:00');
    fireEvent.click(screen.getByTestId('campaign-form-submit'));
    expect(await screen.findByText('A data de início não pode estar no passado.')).toBeInTheDocument();
    expect(saves()).toHaveLength(0);
  });

  it('POSTs the JSON body: the start as yyyy-MM-dd HH:mm, the channel, delay, messages, order and queue', async () => {
    serve();
    const onClose = vi.fn();
    renderWithProviders(<CampaignFormModal opened onClose={onClose} />);
    expect(await screen.findByText(/\{\{name\}\}, \{\{firstName\}\}, \{\{number\}\}/)).toBeInTheDocument();
    typeInto('campaign-form-name', '  Natal  ');
    typeInto('campaign-form-day', '24/12/2099');
    typeInto('campaign-form-time', '09:30');
    await pickChannel();
    typeInto('campaign-form-delay', '45');
    typeInto('campaign-form-message1', 'Olá {{firstName}}!');
    typeInto('campaign-form-message3', 'Oi {{name}}');
    fireEvent.click(screen.getByRole('radio', { name: 'Aleatória' }));
    fireEvent.click(screen.getByTestId('campaign-form-queue'));
    fireEvent.click(await screen.findByRole('option', { name: 'Comercial', hidden: true }));
    fireEvent.click(screen.getByTestId('campaign-form-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(String(saves()[0]?.[0])).toBe('/api/campaigns');
    expect(saves()[0]?.[1]?.method).toBe('POST');
    expect(savedBody()).toEqual({
      name: 'Natal',
      start: '2099-12-24 09:30',
      sessionId: 3,
      delay: 45,
      message1: 'Olá {{firstName}}!',
      message2: null,
      message3: 'Oi {{name}}',
      mediaUrl: null,
      queueId: 2,
      messageOrder: 'random',
    });
  });

  it('an edit starts from the campaign (its start on the company clock) and PUTs; a server refusal is shown', async () => {
    serve(() => jsonResponse({ error: 'ERR_NO_UPDATE_CAMPAIGN_NOT_IN_CANCELED_PENDING' }, 409));
    renderWithProviders(
      <CampaignFormModal
        opened
        onClose={vi.fn()}
        campaign={campaignFixture(9, { name: 'Natal', start: '2099-12-24T12:30:00.000Z' })}
      />,
    );
    expect(await screen.findByTestId('campaign-form-name')).toHaveValue('Natal');
    // 12:30 UTC is 09:30 in São Paulo.
    expect(screen.getByTestId('campaign-form-day')).toHaveValue('24/12/2099');
    expect(screen.getByTestId('campaign-form-time')).toHaveValue('09:30');
    await waitFor(() => expect(screen.getByTestId('campaign-form-session')).toHaveValue('Vendas'));
    fireEvent.click(screen.getByTestId('campaign-form-submit'));
    await waitFor(() => expect(saves()).toHaveLength(1));
    expect(String(saves()[0]?.[0])).toBe('/api/campaigns/9');
    expect(saves()[0]?.[1]?.method).toBe('PUT');
    expect(savedBody()).toMatchObject({ name: 'Natal', sessionId: 3, message1: 'Olá {{firstName}}' });
    await waitFor(() =>
      expect(notifyError).toHaveBeenCalledWith('Somente campanhas pendentes ou canceladas podem ser alteradas.'),
    );
  });
});
