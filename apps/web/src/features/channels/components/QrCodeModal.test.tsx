/** The QR modal (issue 13): the QR string as an image, the pairing-code login, every status's text, closing on CONNECTED. */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHANNEL_STATUSES, type ChannelDto } from '@conversa/shared';
import { resetApiState } from '../../../lib/api';
import { channelFixture } from '../../../test/channels';
import { createTestQueryClient, jsonResponse, Providers, renderWithProviders, typeInto } from '../../../test/render';
import { QrCodeModal } from './QrCodeModal';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));
const { notifySuccess } = await import('../../../lib/notify');

const fetchMock = vi.fn<typeof fetch>();
const writes = () =>
  fetchMock.mock.calls.map(([input, init]) => ({
    call: `${init?.method ?? 'GET'} ${new URL(String(input), 'http://localhost').pathname}`,
    body: init?.body ? (JSON.parse(String(init.body)) as unknown) : undefined,
  }));
const zap = (overrides: Partial<ChannelDto> = {}) =>
  channelFixture(5, { name: 'Zap', type: 'baileys', number: null, status: 'qrcode', ...overrides });

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  fetchMock.mockImplementation(async () => jsonResponse(undefined, 204));
  vi.mocked(notifySuccess).mockClear();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
});
afterEach(() => vi.unstubAllGlobals());

function renderModal(channel: ChannelDto, onClose = vi.fn()) {
  const queryClient = createTestQueryClient();
  const utils = renderWithProviders(<QrCodeModal channel={channel} onClose={onClose} />, queryClient);
  const update = (next: ChannelDto) =>
    utils.rerender(
      <Providers queryClient={queryClient}>
        <QrCodeModal channel={next} onClose={onClose} />
      </Providers>,
    );
  return { onClose, update };
}

describe('QR code modal', { timeout: 20_000 }, () => {
  it('draws a raw QR string as an image with an accessible name, and shows a data URL as it came', async () => {
    const { update } = renderModal(zap({ qrcode: '2@AbCdEf,ghIj==,klm=' }));
    const image = await screen.findByRole('img', { name: 'QR code para conectar Zap' });
    const src = image.getAttribute('src') ?? '';
    expect(src).toMatch(/^data:image\/svg\+xml;charset=utf-8,/);
    expect(decodeURIComponent(src)).toContain('<svg');
    expect(screen.getByTestId('channel-qrcode-state')).toHaveTextContent('Leia o QR code');
    update(zap({ qrcode: 'data:image/png;base64,iVBORw0KGgo=' }));
    await waitFor(() =>
      expect(screen.getByRole('img', { name: 'QR code para conectar Zap' })).toHaveAttribute(
        'src',
        'data:image/png;base64,iVBORw0KGgo=',
      ),
    );
  });

  it('asks for a new QR code with PUT { id, isQrcode }', async () => {
    renderModal(zap({ qrcode: 'abc' }));
    fireEvent.click(screen.getByRole('button', { name: 'Novo QR code' }));
    await waitFor(() =>
      expect(writes()).toEqual([{ call: 'PUT /api/whatsappsession/5', body: { id: 5, isQrcode: true } }]),
    );
  });

  it('logs in with a pairing code: masked number checked, PUT { pairingNumber }, the code shown big with instructions', async () => {
    const { update } = renderModal(zap({ qrcode: 'abc' }));
    fireEvent.click(screen.getByRole('button', { name: 'Usar código de pareamento' }));
    const input = screen.getByRole('textbox', { name: /Número do WhatsApp/ });
    typeInto('channel-pairing-number', '55 (11) 9123');
    expect(input).toHaveValue('+55 11 9123');
    fireEvent.click(screen.getByRole('button', { name: 'Gerar código' }));
    expect(await screen.findByText('Informe o número com código do país e DDD (10 a 15 dígitos).')).toBeInTheDocument();
    expect(writes()).toEqual([]);
    typeInto('channel-pairing-number', '+55 (11) 91234-5678');
    expect(input).toHaveValue('+55 11 912345678');
    fireEvent.click(screen.getByRole('button', { name: 'Gerar código' }));
    await waitFor(() =>
      expect(writes()).toEqual([
        { call: 'PUT /api/whatsappsession/5', body: { id: 5, pairingNumber: '5511912345678' } },
      ]),
    );
    // The session answers by socket: PAIRING, then the code.
    update(zap({ status: 'PAIRING', qrcode: null, pairingCode: null }));
    await waitFor(() => expect(screen.queryByTestId('channel-pairing-form')).not.toBeInTheDocument());
    expect(screen.getByText('Aguardando o código de pareamento…')).toBeInTheDocument();
    update(zap({ status: 'PAIRING', qrcode: null, pairingCode: 'abcd1234' }));
    const code = await screen.findByTestId('channel-pairing-code');
    expect(code).toHaveTextContent('ABCD-1234');
    expect(code).toHaveAccessibleName('Código de pareamento: a b c d 1 2 3 4');
    expect(screen.getByText(/Conectar com número de telefone e digite este código/)).toBeInTheDocument();
    expect(screen.getByTestId('channel-qrcode-state')).toHaveTextContent('Digite o código de pareamento');
  });

  it('gives every status a clear text', () => {
    const texts: Record<string, string> = {
      qrcode: 'Leia o QR code',
      OPENING: 'Conectando…',
      CONNECTED: 'Conectado',
      DISCONNECTED: 'Desconectado',
      PAIRING: 'Digite o código de pareamento',
      // No QR code came in this walk (see the TIMEOUT cases below).
      TIMEOUT: 'Sem resposta do WhatsApp',
      DESTROYED: 'Sessão encerrada',
      CONFLICT: 'Conflito de sessão',
    };
    // A channel already CONNECTED when the modal opens stays open (it has nothing to announce).
    const { update } = renderModal(zap({ status: 'CONNECTED' }));
    for (const status of CHANNEL_STATUSES) {
      update(zap({ status, qrcode: null }));
      expect(screen.getByTestId('channel-qrcode-state'), status).toHaveTextContent(texts[status]!);
    }
    update(zap({ status: 'OPENING' }));
    expect(screen.getByText('Iniciando a sessão; o QR code aparece aqui em instantes.')).toBeInTheDocument();
    update(zap({ status: 'qrcode', qrcode: 'abc' }));
    update(zap({ status: 'TIMEOUT' }));
    expect(screen.getByText(/O QR code expirou sem ser lido/)).toBeInTheDocument();
    update(zap({ status: 'CONFLICT' }));
    expect(screen.getByText(/Este número foi aberto em outro lugar/)).toBeInTheDocument();
  });

  it('a QR code shown and not read is "QR code expirado"', () => {
    const { update } = renderModal(zap({ status: 'OPENING' }));
    update(zap({ status: 'qrcode', qrcode: 'abc' }));
    update(zap({ status: 'TIMEOUT', qrcode: null }));
    expect(screen.getByTestId('channel-qrcode-state')).toHaveTextContent('QR code expirado');
    expect(screen.getByTestId('channel-qrcode-hint')).toHaveTextContent('O QR code expirou sem ser lido');
  });

  it('a login that ended before any QR code came says WhatsApp could not be reached, and why', () => {
    const { update } = renderModal(zap({ status: 'OPENING', qrcode: null }));
    update(zap({ status: 'qrcode', qrcode: null }));
    update(zap({ status: 'TIMEOUT', qrcode: null, proxyUrl: 'http://proxy.local:3128' }));
    expect(screen.getByTestId('channel-qrcode-state')).toHaveTextContent('Sem resposta do WhatsApp');
    expect(screen.getByTestId('channel-qrcode-state')).not.toHaveTextContent('expirado');
    const hint = screen.getByTestId('channel-qrcode-hint');
    expect(hint).toHaveTextContent('Nenhum QR code chegou: a sessão não conseguiu falar com o WhatsApp a tempo.');
    expect(hint).toHaveTextContent('Esta conexão passa por um proxy');
    expect(screen.getByRole('button', { name: 'Tentar novamente' })).toBeInTheDocument();
  });

  it('an expired code of an earlier attempt says nothing about the next one (no code: unreachable)', () => {
    const { update } = renderModal(zap({ status: 'qrcode', qrcode: 'abc' }));
    update(zap({ status: 'TIMEOUT', qrcode: null }));
    update(zap({ status: 'OPENING', qrcode: null }));
    update(zap({ status: 'TIMEOUT', qrcode: null }));
    expect(screen.getByTestId('channel-qrcode-state')).toHaveTextContent('Sem resposta do WhatsApp');
    expect(screen.getByTestId('channel-qrcode-hint')).not.toHaveTextContent('Esta conexão passa por um proxy');
  });

  it('opened on a session that had already timed out, it claims neither', () => {
    renderModal(zap({ status: 'TIMEOUT', qrcode: null }));
    expect(screen.getByTestId('channel-qrcode-state')).toHaveTextContent('Tempo esgotado');
    expect(screen.getByTestId('channel-qrcode-hint')).toHaveTextContent('A última tentativa terminou sem conectar');
  });

  it('retries an expired QR code by starting the session again (POST), and shows the retries when any', async () => {
    renderModal(zap({ status: 'TIMEOUT', retries: 3 }));
    expect(screen.getByTestId('channel-qrcode-retries')).toHaveTextContent('3 tentativas de reconexão');
    fireEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    await waitFor(() => expect(writes()).toEqual([{ call: 'POST /api/whatsappsession/5', body: undefined }]));
  });

  it('hides the retries when there are none', () => {
    renderModal(zap({ retries: 0 }));
    expect(screen.queryByTestId('channel-qrcode-retries')).not.toBeInTheDocument();
  });

  it('shows a refusal with the catalogue text', async () => {
    fetchMock.mockImplementation(async () => jsonResponse({ error: 'ERR_WAPP_NOT_INITIALIZED' }, 409));
    renderModal(zap({ qrcode: 'abc' }));
    fireEvent.click(screen.getByRole('button', { name: 'Novo QR code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Sessão não inicializada.');
  });

  it('closes with a success toast once the session becomes CONNECTED', async () => {
    const { update, onClose } = renderModal(zap({ qrcode: 'abc' }));
    expect(onClose).not.toHaveBeenCalled();
    update(zap({ status: 'CONNECTED', qrcode: null, number: '5511912345678' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(notifySuccess).toHaveBeenCalledWith('Zap conectado!');
  });
});
