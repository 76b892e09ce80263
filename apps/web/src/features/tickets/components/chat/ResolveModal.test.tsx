import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TicketDto } from '@conversa/shared';
import { jsonResponse, renderWithProviders } from '../../../../test/render';
import { fakeApi, logInAs, requestKey } from './chat-harness';
import { ticketFixture } from './chat-fixtures';
import { ResolveModal } from './ResolveModal';

vi.mock('../../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));

const { fetchMock, routes, reset } = fakeApi();
let reasonRequired = 'disabled';

const bodiesOf = (key: string) =>
  fetchMock.mock.calls
    .filter(([url, init]) => requestKey(url, init) === key)
    .map(([, init]) => JSON.parse(String(init?.body)) as unknown);

beforeEach(() => {
  reasonRequired = 'disabled';
  reset({
    'GET /farewellPrivateMessage/': () =>
      jsonResponse({
        farewellPrivateMessage: [
          { id: 4, message: 'Obrigado e até logo!', userId: 1, createdAt: '2025-01-01T00:00:00Z' },
        ],
      }),
    'GET /reasons/': () => jsonResponse({ reasons: [{ id: 9, name: 'Dúvida' }] }),
    'GET /settings/': () => jsonResponse([{ key: 'reasonRequired', value: reasonRequired }]),
    'PUT /tickets/10': () => jsonResponse({ ok: true }),
    'POST /ticketEvaluations/send': () => jsonResponse({ ok: true }, 201),
  });
  logInAs('user', 7);
});
afterEach(() => vi.unstubAllGlobals());

function open(ticket: TicketDto) {
  const onClose = vi.fn();
  renderWithProviders(<ResolveModal ticket={ticket} ownerId={7} opened onClose={onClose} />);
  return onClose;
}

const rated = (overrides: Partial<TicketDto> = {}) =>
  ticketFixture(10, {
    whatsapp: { id: 1, name: 'Telegram', type: 'telegram', status: 'CONNECTED', sendEvaluation: 'enabled' },
    ...overrides,
  });

async function pickOption(testId: string, label: string) {
  fireEvent.click(screen.getByTestId(testId));
  fireEvent.click(await screen.findByRole('option', { name: label, hidden: true }));
}

describe('ResolveModal', () => {
  it('without rating: sends the channel farewell by default, or none', async () => {
    const onClose = open(ticketFixture(10));
    expect(screen.queryByTestId('resolve-rating')).not.toBeInTheDocument();
    expect(await screen.findByTestId('resolve-farewell-channel')).toBeChecked();
    fireEvent.click(screen.getByTestId('resolve-confirm'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(bodiesOf('PUT /tickets/10')).toEqual([{ status: 'closed', userId: 7, sendFarewell: true }]);
  });

  it('sends a closing message from the library and the reason picked', async () => {
    const onClose = open(ticketFixture(10));
    fireEvent.click(await screen.findByTestId('resolve-farewell-library'));
    // The library pick is required once chosen.
    fireEvent.click(screen.getByTestId('resolve-confirm'));
    expect(await screen.findByText(/^Mensagem (cadastrada|registada) é obrigatório$/)).toBeInTheDocument();
    await waitFor(() => expect(fetchMock.mock.calls.some(([u]) => String(u).includes('farewellPrivate'))).toBe(true));
    await pickOption('resolve-farewell-pick', 'Obrigado e até logo!');
    await pickOption('resolve-reason', 'Dúvida');
    fireEvent.click(screen.getByTestId('resolve-confirm'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(bodiesOf('PUT /tickets/10')).toEqual([
      { status: 'closed', userId: 7, sendFarewell: true, farewellMessage: 'Obrigado e até logo!', reasons: 9 },
    ]);
  });

  it('requires a reason when the tenant says so, and sends nothing until one is picked', async () => {
    reasonRequired = 'enabled';
    open(ticketFixture(10));
    fireEvent.click(await screen.findByTestId('resolve-farewell-none'));
    await waitFor(() => expect(screen.getByTestId('resolve-reason')).toBeRequired());
    fireEvent.click(screen.getByTestId('resolve-confirm'));
    expect(await screen.findByText(/^Motivo é obrigatório$/)).toBeInTheDocument();
    expect(bodiesOf('PUT /tickets/10')).toEqual([]);
    await pickOption('resolve-reason', 'Dúvida');
    fireEvent.click(screen.getByTestId('resolve-confirm'));
    await waitFor(() =>
      expect(bodiesOf('PUT /tickets/10')).toEqual([{ status: 'closed', userId: 7, sendFarewell: false, reasons: 9 }]),
    );
  });

  it('with a channel that sends ratings: "send rating" is on and one call sends the written message', async () => {
    const onClose = open(rated());
    expect(await screen.findByTestId('resolve-rating')).toBeChecked();
    fireEvent.click(screen.getByTestId('resolve-farewell-custom'));
    fireEvent.change(screen.getByTestId('resolve-farewell-text'), { target: { value: '  Até breve!  ' } });
    fireEvent.click(screen.getByTestId('resolve-confirm'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(bodiesOf('POST /ticketEvaluations/send')).toEqual([{ ticketId: 10, farewellMessage: 'Até breve!' }]);
    expect(bodiesOf('PUT /tickets/10')).toEqual([]);
  });

  it("with a rating the channel's farewell is still offered and preselected: it goes before the menu", async () => {
    const onClose = open(rated());
    expect(await screen.findByTestId('resolve-rating')).toBeChecked();
    expect(screen.getByTestId('resolve-farewell-channel')).toBeChecked();
    fireEvent.click(screen.getByTestId('resolve-confirm'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(bodiesOf('POST /ticketEvaluations/send')).toEqual([{ ticketId: 10, sendFarewell: true }]);
  });

  it('with a rating and "no message", only the menu is asked for', async () => {
    const onClose = open(rated());
    fireEvent.click(await screen.findByTestId('resolve-farewell-none'));
    fireEvent.click(screen.getByTestId('resolve-confirm'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(bodiesOf('POST /ticketEvaluations/send')).toEqual([{ ticketId: 10 }]);
  });

  it("turning the rating off resolves now, with the channel's farewell still picked", async () => {
    const onClose = open(rated());
    fireEvent.click(await screen.findByTestId('resolve-rating'));
    expect(screen.getByTestId('resolve-farewell-channel')).toBeChecked();
    fireEvent.click(screen.getByTestId('resolve-confirm'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(bodiesOf('PUT /tickets/10')).toEqual([{ status: 'closed', userId: 7, sendFarewell: true }]);
  });

  it('a group ticket is never offered a rating', async () => {
    open(rated({ isGroup: true }));
    expect(await screen.findByTestId('resolve-farewell-channel')).toBeInTheDocument();
    expect(screen.queryByTestId('resolve-rating')).not.toBeInTheDocument();
  });

  it('shows the server refusal in the dialog and stays open', async () => {
    routes['PUT /tickets/10'] = () => jsonResponse({ error: 'ERR_REASON_REQUIRED' }, 400);
    const onClose = open(ticketFixture(10));
    fireEvent.click(await screen.findByTestId('resolve-confirm'));
    expect(await screen.findByTestId('resolve-error')).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });
});
