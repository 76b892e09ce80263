/**
 * /massa/texto: the spec's checks before any call (a pause with max > min, a connection, numbers, the chosen option's
 * fields, the .ogg rule), the exact JSON of POST /bulk/ and the progress card it opens, the file as multipart to
 * POST /bulkClose/, and a server refusal shown on the field it names or as a toast.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetApiState } from '../../../lib/api';
import { channelFixture } from '../../../test/channels';
import { jsonResponse, renderWithProviders, typeInto } from '../../../test/render';
import { batchFixture } from '../bulk.fixtures';
import { TextSendPage } from './TextSendPage';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));
const { notifyError, notifySuccess } = await import('../../../lib/notify');

const fetchMock = vi.fn<typeof fetch>();
const sends = () =>
  fetchMock.mock.calls.filter(([url, init]) => String(url).startsWith('/api/bulk') && init?.method === 'POST');

function serve(answer: () => Response = () => jsonResponse(batchFixture(12))) {
  fetchMock.mockImplementation(async (url, init) => {
    const path = String(url);
    if (path === '/api/whatsapp/')
      return jsonResponse([
        channelFixture(3, { name: 'Vendas', type: 'baileys' }),
        channelFixture(4, { name: 'Bot Telegram' }),
      ]);
    if ((path === '/api/bulk/' || path === '/api/bulkClose/') && init?.method === 'POST') return answer();
    if (path === '/api/bulk/12') return jsonResponse(batchFixture(12));
    return jsonResponse({ error: 'unexpected' }, 500);
  });
}

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.mocked(notifyError).mockClear();
  vi.mocked(notifySuccess).mockClear();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
});
afterEach(() => vi.unstubAllGlobals());

async function pickChannel() {
  fireEvent.click(screen.getByTestId('bulk-text-channel'));
  fireEvent.click(await screen.findByRole('option', { name: 'Vendas', hidden: true }));
  // A connection whose contacts are no phone numbers (Telegram) is not offered.
  expect(screen.queryByRole('option', { name: 'Bot Telegram', hidden: true })).not.toBeInTheDocument();
}

const submit = () => fireEvent.click(screen.getByTestId('bulk-text-submit'));

describe('mass sending: text', { timeout: 30_000 }, () => {
  it('checks the connection, the numbers and max > min before calling the server', async () => {
    serve();
    renderWithProviders(<TextSendPage />);
    expect(screen.getByTestId('bulk-text-min')).toHaveValue('20');
    expect(screen.getByTestId('bulk-text-max')).toHaveValue('40');
    expect(screen.getByTestId('bulk-text-numbers')).toHaveAccessibleDescription(/Nenhum número válido ainda\./);
    typeInto('bulk-text-numbers', 'abc; 123');
    typeInto('bulk-text-max', '20');
    submit();
    expect(await screen.findByText('Conexão é obrigatório')).toBeInTheDocument();
    expect(screen.getByText('Informe ao menos um número válido.')).toBeInTheDocument();
    expect(screen.getByText('A pausa máxima deve ser maior que a mínima.')).toBeInTheDocument();
    expect(screen.getByText('Mensagem é obrigatório')).toBeInTheDocument();
    expect(screen.getByTestId('bulk-text-numbers')).toHaveAccessibleDescription(/2 itens não são números/);
    typeInto('bulk-text-min', '0');
    submit();
    expect(await screen.findByText('Informe um número inteiro de segundos entre 1 e 3600.')).toBeInTheDocument();
    expect(sends()).toHaveLength(0);
  });

  it('asks for the media description, an http(s) URL and an .ogg voice note, as chosen', async () => {
    serve();
    renderWithProviders(<TextSendPage />);
    fireEvent.click(screen.getByRole('radio', { name: 'Mídia por URL' }));
    typeInto('bulk-text-media-url', 'ftp://example.com/a.png');
    submit();
    expect(await screen.findByText('Informe um endereço que comece com http:// ou https://.')).toBeInTheDocument();
    expect(screen.getByText('Descrição da mídia é obrigatório')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('radio', { name: 'Áudio por URL' }));
    typeInto('bulk-text-voice-url', 'https://example.com/audio.mp3');
    submit();
    expect(
      await screen.findByText('O áudio deve ser um arquivo .ogg: o endereço precisa terminar em .ogg.'),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByRole('radio', { name: 'Arquivo' }));
    submit();
    expect(await screen.findByText('Arquivo é obrigatório')).toBeInTheDocument();
    expect(screen.getByText('Descrição do arquivo é obrigatório')).toBeInTheDocument();
    expect(sends()).toHaveLength(0);
  });

  it('POSTs the exact JSON to /bulk/, resets the numbers and shows the progress card', async () => {
    serve();
    renderWithProviders(<TextSendPage />);
    await pickChannel();
    typeInto('bulk-text-numbers', '+55 11 99999-0000\n5511999990000; 5521988887777, abc');
    expect(screen.getByTestId('bulk-text-numbers')).toHaveAccessibleDescription(/2 números válidos\./);
    typeInto('bulk-text-message', 'Olá! Promoção hoje.');
    expect(screen.getByText('19 de 4000 caracteres')).toBeInTheDocument();
    submit();
    await waitFor(() => expect(sends()).toHaveLength(1));
    expect(String(sends()[0]?.[0])).toBe('/api/bulk/');
    expect(JSON.parse(String(sends()[0]?.[1]?.body))).toEqual({
      whatsappId: 3,
      arrayNumbers: ['5511999990000', '5521988887777'],
      min: 20,
      max: 40,
      message: 'Olá! Promoção hoje.',
    });
    const card = await screen.findByTestId('bulk-progress-card');
    expect(within(card).getByRole('heading', { name: 'Envio nº 12' })).toBeInTheDocument();
    expect(within(card).getByTestId('bulk-progress-status')).toHaveTextContent('Enviando');
    expect(within(card).getByTestId('bulk-progress-text')).toHaveTextContent('0 de 2 processados (0%)');
    const bar = within(card).getByRole('progressbar', { hidden: true });
    expect(bar).toHaveAttribute('aria-valuenow', '0');
    expect(bar).toHaveAccessibleName('Progresso do envio nº 12: 0 de 2 processados (0%)');
    expect(within(card).getByTestId('bulk-progress-cancel')).toBeEnabled();
    expect(screen.getByTestId('bulk-text-numbers')).toHaveValue('');
    expect(screen.getByTestId('bulk-text-message')).toHaveValue('Olá! Promoção hoje.');
    expect(notifySuccess).toHaveBeenCalledWith('Envio iniciado para 2 números.');
  });

  it('a voice note by URL goes alone, without a message', async () => {
    serve();
    renderWithProviders(<TextSendPage />);
    await pickChannel();
    typeInto('bulk-text-numbers', '5511999990000');
    typeInto('bulk-text-min', '5');
    typeInto('bulk-text-max', '9');
    fireEvent.click(screen.getByRole('radio', { name: 'Áudio por URL' }));
    typeInto('bulk-text-voice-url', ' https://cdn.example.com/voz.OGG ');
    submit();
    await waitFor(() => expect(sends()).toHaveLength(1));
    expect(JSON.parse(String(sends()[0]?.[1]?.body))).toEqual({
      whatsappId: 3,
      arrayNumbers: ['5511999990000'],
      min: 5,
      max: 9,
      voiceUrl: 'https://cdn.example.com/voz.OGG',
    });
  });

  it('a file goes as multipart to /bulkClose/ with its caption; an audio file may go as a voice note', async () => {
    serve();
    renderWithProviders(<TextSendPage />);
    await pickChannel();
    typeInto('bulk-text-numbers', '5511999990000, 5521988887777');
    fireEvent.click(screen.getByRole('radio', { name: 'Arquivo' }));
    const file = new File([new Uint8Array([79, 103, 103, 83])], 'aviso.ogg', { type: 'audio/ogg' });
    fireEvent.change(document.querySelector('input[type="file"]')!, { target: { files: [file] } });
    fireEvent.click(await screen.findByLabelText('Enviar como mensagem de voz'));
    typeInto('bulk-text-file-description', 'Aviso da loja');
    submit();
    await waitFor(() => expect(sends()).toHaveLength(1));
    expect(String(sends()[0]?.[0])).toBe('/api/bulkClose/');
    const body = sends()[0]?.[1]?.body as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect([...body.keys()].sort()).toEqual(
      ['arrayNumbers', 'max', 'mediaLocalDescription', 'medias', 'min', 'voiceLocal', 'whatsappId'].sort(),
    );
    expect(body.get('whatsappId')).toBe('3');
    expect(body.get('arrayNumbers')).toBe('["5511999990000","5521988887777"]');
    expect(body.get('min')).toBe('20');
    expect(body.get('max')).toBe('40');
    expect((body.get('medias') as File).name).toBe('aviso.ogg');
    expect(body.get('mediaLocalDescription')).toBe('Aviso da loja');
    expect(body.get('voiceLocal')).toBe('true');
    expect(await screen.findByTestId('bulk-progress-card')).toBeInTheDocument();
  });

  it('a 400 ERR_VALIDATION marks the field it names (a toast when the form does not show it); others are a toast', async () => {
    let answer = jsonResponse({ error: 'ERR_VALIDATION', field: 'arrayNumbers' }, 400);
    serve(() => answer);
    renderWithProviders(<TextSendPage />);
    await pickChannel();
    typeInto('bulk-text-numbers', '5511999990000');
    typeInto('bulk-text-message', 'Oi');
    submit();
    expect(await screen.findByText('Números é inválido.')).toBeInTheDocument();
    expect(notifyError).not.toHaveBeenCalled();
    expect(screen.queryByTestId('bulk-progress-card')).toBeNull();
    answer = jsonResponse({ error: 'ERR_VALIDATION', field: 'voiceUrl' }, 400);
    submit();
    await waitFor(() => expect(notifyError).toHaveBeenCalledWith('URL do áudio é inválido.'));
    answer = jsonResponse({ error: 'ERR_NO_WAPP_FOUND' }, 404);
    submit();
    await waitFor(() => expect(notifyError).toHaveBeenCalledWith('Nenhuma conexão encontrada com este ID.'));
    // Kept for a new try.
    expect(screen.getByTestId('bulk-text-numbers')).toHaveValue('5511999990000');
  });
});
