/** The chat's transfer to the chatbot: active flows only, PUT /ticketsChatBot/{id} { chatFlowId }, refusals shown. */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetApiState } from '../../../../lib/api';
import { jsonResponse, renderWithProviders } from '../../../../test/render';
import { ticketFixture } from './chat-fixtures';
import { TransferModal } from './TransferModal';
import { chatFlowFixture } from '../../../../test/chat-flows';

vi.mock('../../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));
const { notifySuccess } = await import('../../../../lib/notify');

const fetchMock = vi.fn<typeof fetch>();
let handOver: () => Response;
const puts = () =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method === 'PUT')
    .map(([url, init]) => ({ path: String(url), body: JSON.parse(String(init?.body)) as unknown }));

beforeEach(() => {
  resetApiState();
  handOver = () => jsonResponse(ticketFixture(10, { status: 'pending', userId: null, chatFlowId: 5 }));
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url, init) => {
    const path = String(url).replace(/\?.*$/, '');
    if (init?.method === 'PUT' && path === '/api/ticketsChatBot/10') return handOver();
    if (path === '/api/chat-flow')
      return jsonResponse({ chatFlow: [chatFlowFixture(5, 'Vendas', true), chatFlowFixture(6, 'Rascunho', false)] });
    if (path === '/api/queue/') return jsonResponse([]);
    if (path === '/api/users/') return jsonResponse({ users: [], count: 0, hasMore: false });
    return jsonResponse({ error: 'ERR_NOT_MOCKED' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  vi.mocked(notifySuccess).mockClear();
  localStorage.setItem('token', 'jwt');
});
afterEach(() => vi.unstubAllGlobals());

async function pickChatbot(onClose = vi.fn()) {
  renderWithProviders(<TransferModal ticket={ticketFixture(10)} opened onClose={onClose} canListUsers />);
  const dialog = await screen.findByRole('dialog');
  fireEvent.click(within(dialog).getByRole('radio', { name: 'Chatbot' }));
  const select = await within(dialog).findByTestId('chat-transfer-chat-flow');
  expect(select).toHaveAccessibleName('Fluxo do chatbot');
  await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/chat-flow')).toBe(true));
  return { dialog, select };
}

describe('transfer to the chatbot', { timeout: 40_000 }, () => {
  it('lists the active flows only and sends PUT /ticketsChatBot/{id} { chatFlowId }', async () => {
    const onClose = vi.fn();
    const { dialog, select } = await pickChatbot(onClose);
    expect(within(dialog).getByTestId('chat-transfer-submit')).toBeDisabled();
    fireEvent.click(select);
    expect(await screen.findByRole('option', { name: 'Vendas', hidden: true })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Rascunho', hidden: true })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('option', { name: 'Vendas', hidden: true }));
    fireEvent.click(within(dialog).getByTestId('chat-transfer-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(puts()).toEqual([{ path: '/api/ticketsChatBot/10', body: { chatFlowId: 5 } }]);
    expect(notifySuccess).toHaveBeenCalledWith('Ticket transferido.');
  });

  it('shows a refusal in the dialog and stays open', async () => {
    handOver = () => jsonResponse({ error: 'ERR_NO_TICKET_FOUND' }, 404);
    const onClose = vi.fn();
    const { dialog, select } = await pickChatbot(onClose);
    fireEvent.click(select);
    fireEvent.click(await screen.findByRole('option', { name: 'Vendas', hidden: true }));
    fireEvent.click(within(dialog).getByTestId('chat-transfer-submit'));
    expect(await within(dialog).findByTestId('chat-transfer-error')).toHaveTextContent('Ticket não encontrado.');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('the queue/user target is the default and does not read the flows', async () => {
    renderWithProviders(<TransferModal ticket={ticketFixture(10)} opened onClose={vi.fn()} canListUsers />);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('radio', { name: 'Fila ou atendente' })).toBeChecked();
    expect(within(dialog).getByTestId('chat-transfer-queue')).toBeInTheDocument();
    expect(within(dialog).queryByTestId('chat-transfer-chat-flow')).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/chat-flow')).toBe(false);
  });
});

const user = (id: number, name: string) => ({
  id,
  name,
  email: `${id}@x.test`,
  profile: 'user',
  tenantId: 1,
  isOnline: true,
  blockWavoip: false,
  queues: [],
  whatsappAllowed: [],
  configs: {},
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
});

describe('transfer to a queue or an agent', { timeout: 40_000 }, () => {
  beforeEach(() => {
    fetchMock.mockImplementation(async (url) => {
      const path = String(url).replace(/\?.*$/, '');
      if (path === '/api/queue/')
        return jsonResponse([
          { id: 2, queue: 'Vendas', isActive: true },
          { id: 3, queue: 'Suporte', isActive: true },
        ]);
      if (path === '/api/users/')
        return jsonResponse({ users: [user(7, 'Ana'), user(8, 'Bruno')], count: 2, hasMore: false });
      return jsonResponse({ error: 'ERR_NOT_MOCKED' }, 404);
    });
  });

  async function open(ticket = ticketFixture(10)) {
    renderWithProviders(<TransferModal ticket={ticket} opened onClose={vi.fn()} canListUsers />);
    const dialog = await screen.findByRole('dialog');
    const queue = within(dialog).getByTestId('chat-transfer-queue');
    await waitFor(() => expect(queue).toHaveValue('Vendas (fila atual)'));
    return { dialog, queue };
  }

  it('picking the current queue again keeps it (it used to clear the field) and says it is the current one', async () => {
    const { queue } = await open();
    fireEvent.click(queue);
    fireEvent.click(await screen.findByRole('option', { name: 'Vendas (fila atual)', hidden: true }));
    expect(queue).toHaveValue('Vendas (fila atual)');
    expect(screen.getByRole('option', { name: 'Suporte', hidden: true })).toBeInTheDocument();
  });

  it('offers the current agent disabled, marked as the current one', async () => {
    const { dialog } = await open();
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith('/api/users/'))).toBe(true));
    fireEvent.click(within(dialog).getByTestId('chat-transfer-user'));
    const current = await screen.findByRole('option', { name: 'Ana (atendente atual)', hidden: true });
    expect(current).toHaveAttribute('data-combobox-disabled');
    fireEvent.click(current);
    expect(within(dialog).getByTestId('chat-transfer-user')).toHaveValue('');
    expect(screen.getByRole('option', { name: 'Bruno', hidden: true })).not.toHaveAttribute('data-combobox-disabled');
  });

  it('says so and offers no transfer when nothing would change (an unassigned ticket to its own queue)', async () => {
    const { dialog } = await open(ticketFixture(10, { status: 'pending', userId: null, user: null }));
    expect(within(dialog).getByText('O ticket já está nesta fila: escolha outra fila ou um atendente.')).toBeVisible();
    expect(within(dialog).getByTestId('chat-transfer-submit')).toBeDisabled();
  });
});
