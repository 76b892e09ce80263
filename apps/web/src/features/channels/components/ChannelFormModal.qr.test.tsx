/** The channel form for the four QR types (issue 13): fields per type, their checks and the body sent. */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { channelInputSchema, type ChannelType } from '@conversa/shared';
import { resetApiState } from '../../../lib/api';
import { channelFixture } from '../../../test/channels';
import { jsonResponse, renderWithProviders, typeInto } from '../../../test/render';
import { ChannelFormModal } from './ChannelFormModal';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));

const QR_TYPES: ChannelType[] = ['baileys', 'whatsapp', 'evo', 'meow', 'telegram'];
const fetchMock = vi.fn<typeof fetch>();
const writes = () => fetchMock.mock.calls.filter(([, init]) => init?.method && init.method !== 'GET');
const bodyOfWrite = (index = 0) => JSON.parse(String(writes()[index]?.[1]?.body)) as Record<string, unknown>;
let tenant: Record<string, unknown> = { id: 1, wuzapiHost: 'https://wuzapi.example.com', evoHost: null };

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  tenant = { id: 1, wuzapiHost: 'https://wuzapi.example.com', evoHost: 'https://evo.example.com' };
  fetchMock.mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    if ((init?.method ?? 'GET') === 'GET') {
      if (url.pathname === '/api/queue/') return jsonResponse([{ id: 3, queue: 'Vendas', isActive: true }]);
      if (url.pathname === '/api/users/') return jsonResponse({ users: [], count: 0, hasMore: false });
      if (url.pathname === '/api/tenants/undefined') return jsonResponse([tenant]);
    }
    return jsonResponse(channelFixture(9), init?.method === 'POST' ? 201 : 200);
  });
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
});
afterEach(() => vi.unstubAllGlobals());

function open(type: ChannelType, onClose = vi.fn(), channel?: ReturnType<typeof channelFixture>) {
  // The form starts on the first supported type: offering this one first opens the form on it.
  renderWithProviders(
    <ChannelFormModal opened onClose={onClose} channel={channel} supportedTypes={[type, ...QR_TYPES]} />,
  );
  return onClose;
}
const submit = () => fireEvent.click(screen.getByTestId('channel-form-submit'));

describe('channel form for QR types', { timeout: 20_000 }, () => {
  it('offers the four QR types when supported and shows only the name for Baileys, with an import tab', async () => {
    const onClose = open('baileys');
    expect(screen.getByTestId('channel-form-type')).toHaveValue('WhatsApp (Baileys)');
    expect(screen.queryByTestId('channel-form-token')).not.toBeInTheDocument();
    expect(screen.queryByTestId('channel-form-remote-path')).not.toBeInTheDocument();
    expect(screen.queryByTestId('channel-form-token-api')).not.toBeInTheDocument();
    fireEvent.click(screen.getByTestId('channel-tab-import'));
    expect(screen.getByRole('switch', { name: 'Importar mensagens', hidden: true })).toBeInTheDocument();
    expect(screen.getByLabelText('Data inicial')).toBeInTheDocument();
    expect(screen.getByLabelText('Data final')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('channel-form-flag-importMessages'));
    fireEvent.click(screen.getByTestId('channel-form-flag-closedTicketsPostImported'));
    typeInto('channel-form-name', 'Atendimento');
    submit();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const body = bodyOfWrite();
    expect(channelInputSchema.strict().safeParse(body).success).toBe(true);
    expect(body).toMatchObject({
      name: 'Atendimento',
      type: 'baileys',
      remotePath: null,
      wabaId: null,
      importMessages: 'enabled',
      closedTicketsPostImported: 'enabled',
      importGroupMessages: 'disabled',
      importOldMessages: null,
      importRecentMessages: null,
      queueIdImportMessages: null,
    });
    expect(body).not.toHaveProperty('tokenAPI');
    expect(body).not.toHaveProperty('tokenTelegram');
  });

  it('switches type in the select: WhatsApp Web needs only the name, Telegram has no import tab', async () => {
    open('telegram');
    await waitFor(() => expect(screen.getByTestId('channel-form-name')).toHaveFocus());
    expect(screen.queryByTestId('channel-tab-import')).not.toBeInTheDocument();
    fireEvent.click(screen.getByTestId('channel-form-type'));
    const listbox = await waitFor(() => {
      const id = screen.getByTestId('channel-form-type').getAttribute('aria-controls');
      const element = id ? document.getElementById(id) : null;
      if (!element) throw new Error('no listbox');
      return element;
    });
    const option = within(listbox)
      .getAllByRole('option', { hidden: true })
      .find((item) => item.textContent === 'WhatsApp Web');
    expect(option).not.toHaveAttribute('aria-disabled');
    fireEvent.click(option!);
    expect(screen.getByTestId('channel-form-type')).toHaveValue('WhatsApp Web');
    expect(screen.getByTestId('channel-tab-import')).toBeInTheDocument();
    expect(screen.queryByTestId('channel-form-token')).not.toBeInTheDocument();
  });

  it('Evolution: the name is shown live as the instance, the URL comes from the tenant, the key may stay empty', async () => {
    const onClose = open('evo');
    await waitFor(() => expect(screen.getByTestId('channel-form-remote-path')).toHaveValue('https://evo.example.com'));
    expect(screen.getByLabelText('URL da API', { exact: false })).toBe(screen.getByTestId('channel-form-remote-path'));
    expect(screen.getByLabelText('Chave da API (apikey)')).toBe(screen.getByTestId('channel-form-token-api'));
    expect(screen.queryByTestId('channel-form-instance')).not.toBeInTheDocument();
    typeInto('channel-form-name', 'Loja Centro #1');
    expect(screen.getByText('Instância: LojaCentro1 (somente letras e números)')).toBeInTheDocument();
    submit();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const body = bodyOfWrite();
    expect(channelInputSchema.strict().safeParse(body).success).toBe(true);
    expect(body).toMatchObject({
      name: 'LojaCentro1',
      type: 'evo',
      wabaId: 'LojaCentro1',
      remotePath: 'https://evo.example.com',
    });
    expect(body).not.toHaveProperty('tokenAPI');
  });

  it('Evolution: refuses a name without letters or digits and an invalid URL, without calling the server', async () => {
    open('evo');
    await waitFor(() => expect(screen.getByTestId('channel-form-remote-path')).toHaveValue('https://evo.example.com'));
    typeInto('channel-form-name', '###');
    typeInto('channel-form-remote-path', 'evo.example.com');
    submit();
    expect(
      await screen.findByText('O nome precisa ter letras ou números (ele é o nome da instância).'),
    ).toBeInTheDocument();
    expect(screen.getByText('Informe uma URL válida (http:// ou https://).')).toBeInTheDocument();
    typeInto('channel-form-remote-path', 'ftp://evo.example.com');
    submit();
    expect(await screen.findByText('Informe uma URL válida (http:// ou https://).')).toBeInTheDocument();
    expect(writes()).toEqual([]);
  });

  it('Evolution on edit: the name is locked and kept, the stored key kept unless a new one is typed', async () => {
    const channel = channelFixture(4, {
      type: 'evo',
      name: 'LojaCentro1',
      wabaId: 'LojaCentro1',
      remotePath: 'https://evo.old.example.com',
      configuredSecrets: ['tokenAPI'],
    });
    const onClose = open('evo', vi.fn(), channel);
    const name = screen.getByTestId('channel-form-name');
    expect(name).toHaveAttribute('readonly');
    expect(screen.getByText('O nome de uma conexão Evolution não pode ser alterado.')).toBeInTheDocument();
    // The stored URL is not replaced by the tenant's.
    expect(screen.getByTestId('channel-form-remote-path')).toHaveValue('https://evo.old.example.com');
    expect(screen.getByText('Configurado — deixe em branco para manter.')).toBeInTheDocument();
    submit();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(writes()[0]?.[1]?.method).toBe('PUT');
    const body = bodyOfWrite();
    expect(body).toMatchObject({
      name: 'LojaCentro1',
      wabaId: 'LojaCentro1',
      remotePath: 'https://evo.old.example.com',
    });
    expect(body).not.toHaveProperty('tokenAPI');
  });

  it('Wuzapi: requires the user token and a valid URL; sends URL, token and instance', async () => {
    const onClose = open('meow');
    await waitFor(() =>
      expect(screen.getByTestId('channel-form-remote-path')).toHaveValue('https://wuzapi.example.com'),
    );
    expect(screen.getByLabelText('Token do usuário Wuzapi', { exact: false })).toBe(
      screen.getByTestId('channel-form-token-api'),
    );
    expect(screen.getByLabelText('Instância')).toBe(screen.getByTestId('channel-form-instance'));
    typeInto('channel-form-name', 'Vendas');
    typeInto('channel-form-remote-path', '');
    submit();
    expect(await screen.findByText('Informe o token do usuário Wuzapi.')).toBeInTheDocument();
    expect(screen.getByText('URL da API é obrigatório')).toBeInTheDocument();
    expect(writes()).toEqual([]);
    typeInto('channel-form-remote-path', ' https://wz.example.com:8080 ');
    typeInto('channel-form-token-api', ' user-token ');
    typeInto('channel-form-instance', 'vendas-1');
    submit();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const body = bodyOfWrite();
    expect(channelInputSchema.strict().safeParse(body).success).toBe(true);
    expect(body).toMatchObject({
      name: 'Vendas',
      type: 'meow',
      remotePath: 'https://wz.example.com:8080',
      tokenAPI: 'user-token',
      wabaId: 'vendas-1',
    });
  });

  it('Wuzapi without a tenant host starts with an empty URL', async () => {
    tenant = { id: 1, wuzapiHost: null, evoHost: null };
    open('meow');
    await waitFor(() => expect(fetchMock.mock.calls.some(([input]) => String(input).includes('/tenants/'))).toBe(true));
    expect(screen.getByTestId('channel-form-remote-path')).toHaveValue('');
  });
});
