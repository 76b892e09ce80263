/**
 * The channel form's routing: the chatbot flow (GET /chat-flow) and the distribution mode, with `selfDistribute`
 * following the mode (decisions §B) instead of being a switch of its own.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { channelInputSchema } from '@conversa/shared';
import { resetApiState } from '../../../lib/api';
import { channelFixture } from '../../../test/channels';
import { jsonResponse, renderWithProviders, typeInto } from '../../../test/render';
import { channelToValues, valuesToInput } from '../hooks/channel-form';
import { ChannelFormModal } from './ChannelFormModal';
import { chatFlowFixture } from '../../../test/chat-flows';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));

const fetchMock = vi.fn<typeof fetch>();
const writes = () => fetchMock.mock.calls.filter(([, init]) => init?.method && init.method !== 'GET');
const bodyOfWrite = (index = 0) => JSON.parse(String(writes()[index]?.[1]?.body)) as Record<string, unknown>;

const flows = [chatFlowFixture(5, 'Boas-vindas', true), chatFlowFixture(6, 'Rascunho', false)];
let flowsAnswer: () => Response = () => jsonResponse({ chatFlow: flows });

beforeEach(() => {
  resetApiState();
  flowsAnswer = () => jsonResponse({ chatFlow: flows });
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    if ((init?.method ?? 'GET') === 'GET') {
      if (url.pathname === '/api/queue/') return jsonResponse([]);
      if (url.pathname === '/api/users/') return jsonResponse({ users: [], count: 0, hasMore: false });
      if (url.pathname === '/api/chat-flow') return flowsAnswer();
      return jsonResponse({ error: 'unexpected' }, 404);
    }
    return jsonResponse(channelFixture(9));
  });
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
});
afterEach(() => vi.unstubAllGlobals());

const settle = () => waitFor(() => expect(screen.getByTestId('channel-form-name')).toHaveFocus());

async function optionsOf(testId: string): Promise<HTMLElement[]> {
  const listbox = await waitFor(() => {
    const id = screen.getByTestId(testId).getAttribute('aria-controls');
    const element = id ? document.getElementById(id) : null;
    if (!element) throw new Error(`${testId} has no open listbox`);
    return element;
  });
  return within(listbox).getAllByRole('option', { hidden: true });
}
async function chooseOption(testId: string, name: string) {
  await waitFor(() => expect(screen.getByTestId(testId)).toBeEnabled());
  fireEvent.click(screen.getByTestId(testId));
  const option = (await optionsOf(testId)).find((item) => item.textContent === name);
  if (!option) throw new Error(`no option ${name}`);
  fireEvent.click(option);
}

describe('channel form routing', { timeout: 60_000 }, () => {
  it('creates a channel with the chosen flow and a balanced distribution (selfDistribute enabled)', async () => {
    const onClose = vi.fn();
    renderWithProviders(<ChannelFormModal opened onClose={onClose} supportedTypes={['telegram']} />);
    await settle();
    expect(screen.getByTestId('channel-form-distribution')).toHaveValue('Nenhuma');
    typeInto('channel-form-name', 'Bot');
    typeInto('channel-form-token', '123:ABC');
    await waitFor(() => expect(screen.getByTestId('channel-form-chat-flow')).toBeEnabled());
    fireEvent.click(screen.getByTestId('channel-form-chat-flow'));
    // Every flow is offered; an inactive one says so (only active flows answer).
    expect((await optionsOf('channel-form-chat-flow')).map((option) => option.textContent)).toEqual([
      'Boas-vindas',
      'Rascunho (inativo)',
    ]);
    await chooseOption('channel-form-chat-flow', 'Boas-vindas');
    await chooseOption('channel-form-distribution', 'Equilibrada');
    fireEvent.click(screen.getByTestId('channel-form-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const body = bodyOfWrite();
    expect(channelInputSchema.strict().safeParse(body).success).toBe(true);
    expect(body).toMatchObject({ chatFlowId: 5, distribution: 'B', selfDistribute: 'enabled' });
  });

  it('edits: shows the stored flow and mode; no flow and mode N send null and selfDistribute disabled', async () => {
    const channel = channelFixture(7, {
      chatFlowId: 6,
      distribution: 'R',
      selfDistribute: 'enabled',
      configuredSecrets: ['tokenTelegram'],
    });
    const onClose = vi.fn();
    renderWithProviders(<ChannelFormModal opened onClose={onClose} channel={channel} />);
    await waitFor(() => expect(screen.getByTestId('channel-form-chat-flow')).toHaveValue('Rascunho (inativo)'));
    expect(screen.getByTestId('channel-form-distribution')).toHaveValue('Aleatória');
    // The mode replaces the behaviour tab's switch: one control, so the two cannot disagree.
    fireEvent.click(screen.getByTestId('channel-tab-behaviour'));
    expect(screen.queryByTestId('channel-form-flag-selfDistribute')).toBeNull();
    fireEvent.click(screen.getByTestId('channel-tab-general'));
    await chooseOption('channel-form-distribution', 'Nenhuma');
    const clear = within(screen.getByTestId('channel-form-chat-flow').parentElement!).getByRole('button', {
      hidden: true,
    });
    fireEvent.click(clear);
    await waitFor(() => expect(screen.getByTestId('channel-form-chat-flow')).toHaveValue(''));
    fireEvent.click(screen.getByTestId('channel-form-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(writes()[0]?.[0]).toBe('/api/whatsapp/7');
    expect(bodyOfWrite()).toMatchObject({ chatFlowId: null, distribution: 'N', selfDistribute: 'disabled' });
  });

  it('keeps the stored flow when the flows cannot be loaded, and says so under the select', async () => {
    flowsAnswer = () => jsonResponse({ error: 'ERR_INTERNAL' }, 500);
    const channel = channelFixture(7, { chatFlowId: 5, distribution: 'B', configuredSecrets: ['tokenTelegram'] });
    const onClose = vi.fn();
    renderWithProviders(<ChannelFormModal opened onClose={onClose} channel={channel} />);
    expect(await screen.findByText('Erro ao carregar os fluxos de chatbot.')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('channel-form-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(bodyOfWrite()).toMatchObject({ chatFlowId: 5, distribution: 'B', selfDistribute: 'enabled' });
  });
});

describe('channel form values', () => {
  it('reads the mode and the flow, and writes selfDistribute from the mode whatever the flags say', () => {
    const channel = channelFixture(3, { distribution: 'B', selfDistribute: 'disabled', chatFlowId: 8 });
    const values = channelToValues(channel);
    expect(values).toMatchObject({ distribution: 'B', chatFlowId: '8' });
    expect(valuesToInput(values, channel)).toMatchObject({
      distribution: 'B',
      chatFlowId: 8,
      selfDistribute: 'enabled',
    });
    const none = valuesToInput(
      { ...values, distribution: 'N', flags: { ...values.flags, selfDistribute: true } },
      channel,
    );
    expect(none).toMatchObject({ distribution: 'N', selfDistribute: 'disabled' });
    expect(channelToValues(undefined)).toMatchObject({ distribution: 'N', chatFlowId: null });
  });
});
