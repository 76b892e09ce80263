/**
 * /massa/textovariavel: the lines are counted and the first bad one named, the variables the lines allow are listed
 * and inserted at the cursor, a {{varN}} no line fills is refused, and POST /bulkVariable/ carries the lines.
 */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetApiState } from '../../../lib/api';
import { channelFixture } from '../../../test/channels';
import { jsonResponse, renderWithProviders, typeInto } from '../../../test/render';
import { batchFixture } from '../bulk.fixtures';
import { VariableSendPage } from './VariableSendPage';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));

const fetchMock = vi.fn<typeof fetch>();
const sends = () => fetchMock.mock.calls.filter(([url]) => String(url) === '/api/bulkVariable/');

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url, init) => {
    const path = String(url);
    if (path === '/api/whatsapp/')
      return jsonResponse([
        channelFixture(3, { name: 'Vendas', type: 'baileys' }),
        channelFixture(4, { name: 'Bot Telegram' }),
      ]);
    if (path === '/api/bulkVariable/' && init?.method === 'POST') return jsonResponse(batchFixture(21, { total: 3 }));
    if (path === '/api/bulk/21') return jsonResponse(batchFixture(21, { total: 3 }));
    return jsonResponse({ error: 'unexpected' }, 500);
  });
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
});
afterEach(() => vi.unstubAllGlobals());

const LINES_WITH_A_BAD_ONE = '5511999990000,Maria,15/12\n\nJoão,5521988881111\n5521988887777,Pedro';

describe('mass sending: text with variables', { timeout: 30_000 }, () => {
  it('names the first invalid line, live and on send, and sends nothing', async () => {
    renderWithProviders(<VariableSendPage />);
    typeInto('bulk-var-lines', LINES_WITH_A_BAD_ONE);
    const lines = screen.getByTestId('bulk-var-lines');
    expect(lines).toHaveAccessibleDescription(/2 linhas válidas\./);
    expect(lines).toHaveAccessibleDescription(/1 linha inválida: a linha 3 não começa com um número\./);
    typeInto('bulk-var-message', 'Oi {{var1}}');
    fireEvent.click(screen.getByTestId('bulk-var-submit'));
    expect(
      await screen.findByText('A linha 3 não começa com um número válido (de 8 a 15 dígitos).'),
    ).toBeInTheDocument();
    expect(screen.getByText('Conexão é obrigatório')).toBeInTheDocument();
    expect(sends()).toHaveLength(0);
  });

  it('lists the variables the lines allow, inserts one at the cursor, and refuses a column no line has', async () => {
    renderWithProviders(<VariableSendPage />);
    typeInto('bulk-var-lines', '5511999990000,Maria,15/12\n5521988887777,Pedro');
    const message = screen.getByTestId('bulk-var-message') as HTMLTextAreaElement;
    expect(message).toHaveAccessibleDescription(
      /Variáveis disponíveis: \{\{var1\}\}, \{\{var2\}\}, \{\{name\}\}, \{\{firstName\}\}, \{\{number\}\}\./,
    );
    typeInto('bulk-var-message', 'Olá , até {{var3}}');
    message.setSelectionRange(4, 4);
    fireEvent.click(screen.getByTestId('bulk-var-insert-variable'));
    fireEvent.click(await screen.findByTestId('bulk-var-variable-var1'));
    expect(message).toHaveValue('Olá {{var1}}, até {{var3}}');
    fireEvent.click(screen.getByTestId('bulk-var-submit'));
    expect(
      await screen.findByText('A mensagem usa {{var3}}, mas as linhas têm no máximo 2 variáveis.'),
    ).toBeInTheDocument();
    expect(sends()).toHaveLength(0);
  });

  it('POSTs /bulkVariable/ with the non-empty lines, the message, the pause and the media, then shows the card', async () => {
    renderWithProviders(<VariableSendPage />);
    fireEvent.click(screen.getByTestId('bulk-var-channel'));
    fireEvent.click(await screen.findByRole('option', { name: 'Vendas', hidden: true }));
    typeInto('bulk-var-lines', LINES_WITH_A_BAD_ONE.replace('João,5521988881111', ' 5521988881111,João '));
    typeInto('bulk-var-message', 'Oi {{var1}}, sua entrega é {{var2}}. {{firstName}}');
    typeInto('bulk-var-min', '30');
    typeInto('bulk-var-max', '90');
    fireEvent.click(screen.getByRole('radio', { name: 'Mídia por URL' }));
    typeInto('bulk-var-media-url', 'https://cdn.example.com/folheto.pdf');
    typeInto('bulk-var-media-description', 'Folheto');
    fireEvent.click(screen.getByTestId('bulk-var-submit'));
    await waitFor(() => expect(sends()).toHaveLength(1));
    expect(sends()[0]?.[1]?.method).toBe('POST');
    expect(JSON.parse(String(sends()[0]?.[1]?.body))).toEqual({
      whatsappId: 3,
      number: '5511999990000,Maria,15/12\n5521988881111,João\n5521988887777,Pedro',
      message: 'Oi {{var1}}, sua entrega é {{var2}}. {{firstName}}',
      min: 30,
      max: 90,
      mediaUrl: 'https://cdn.example.com/folheto.pdf',
      mediaDescription: 'Folheto',
    });
    expect(await screen.findByTestId('bulk-progress-card')).toHaveTextContent('Envio nº 21');
    expect(screen.getByTestId('bulk-var-lines')).toHaveValue('');
  });
});
