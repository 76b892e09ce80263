import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TicketDto } from '@conversa/shared';
import { Providers, renderWithProviders } from '../../../../test/render';
import { useCustomerWindow } from '../../hooks/customer-window';
import { ticketFixture } from './chat-fixtures';
import { CustomerWindowIndicator } from './CustomerWindowIndicator';

const H = 3600_000;
const NOW = new Date(2025, 2, 1, 12, 0, 0).getTime();

function Harness({ ticket, lastIncomingAt }: { ticket: TicketDto; lastIncomingAt: string | null }) {
  const window = useCustomerWindow(ticket, lastIncomingAt);
  return window ? <CustomerWindowIndicator window={window} /> : <p>sem janela</p>;
}

const official = (type: string, overrides: Partial<TicketDto> = {}) =>
  ticketFixture(10, {
    whatsapp: { id: 1, name: 'Oficial', type, status: 'CONNECTED', sendEvaluation: 'disabled' },
    ...overrides,
  });

const render = (ticket: TicketDto, lastIncomingAt: string | null = null) => {
  const view = renderWithProviders(<Harness ticket={ticket} lastIncomingAt={lastIncomingAt} />);
  return (next: TicketDto, incoming: string | null = lastIncomingAt) =>
    view.rerender(
      <Providers>
        <Harness ticket={next} lastIncomingAt={incoming} />
      </Providers>,
    );
};

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});
afterEach(() => vi.useRealTimers());

describe('24-hour window indicator', () => {
  it('shows until when the window is open and the time left, then closes by itself when until passes', () => {
    // The customer wrote 20 h ago: 4 h left.
    render(official('waba', { customerWindow: { open: true, until: new Date(NOW + 4 * H).toISOString() } }));
    const bar = screen.getByTestId('chat-window');
    expect(bar).toHaveAttribute('data-state', 'open');
    expect(screen.getByTestId('chat-window-state')).toHaveTextContent('Janela aberta até 01/03/2025 16:00');
    expect(screen.getByTestId('chat-window-state')).toHaveAttribute('role', 'status');
    expect(screen.getByTestId('chat-window-left')).toHaveTextContent('restam 4 h 0 min');

    act(() => vi.advanceTimersByTime(3 * H + 30 * 60_000));
    expect(bar).toHaveAttribute('data-state', 'expiring');
    expect(screen.getByTestId('chat-window-left')).toHaveTextContent('restam 30 min');

    act(() => vi.advanceTimersByTime(30 * 60_000));
    expect(bar).toHaveAttribute('data-state', 'closed');
    expect(screen.getByTestId('chat-window-state')).toHaveTextContent('Janela de 24 h fechada');
    expect(screen.queryByTestId('chat-window-left')).toBeNull();
  });

  it('reopens when the customer writes (a new received message, or lastMessageReceived from realtime)', () => {
    const closed = official('waba', { customerWindow: { open: false, until: new Date(NOW - H).toISOString() } });
    const update = render(closed);
    expect(screen.getByTestId('chat-window')).toHaveAttribute('data-state', 'closed');

    update(closed, new Date(NOW).toISOString());
    expect(screen.getByTestId('chat-window')).toHaveAttribute('data-state', 'open');
    expect(screen.getByTestId('chat-window-state')).toHaveTextContent('Janela aberta até 02/03/2025 12:00');

    // A realtime ticket:update carries no customerWindow: the known until and lastMessageReceived still count.
    update({ ...closed, customerWindow: undefined, lastMessageReceived: NOW + 60_000 }, null);
    expect(screen.getByTestId('chat-window-state')).toHaveTextContent('Janela aberta até 02/03/2025 12:01');
  });

  it('says closed when the customer never wrote', () => {
    render(official('waba', { customerWindow: { open: false, until: null } }));
    expect(screen.getByTestId('chat-window')).toHaveAttribute('data-state', 'closed');
    expect(screen.getByTestId('chat-window')).toHaveTextContent('o cliente ainda não escreveu neste canal');
  });

  it('tells Messenger and Instagram agents that later messages go with the human agent tag', () => {
    render(official('instagram', { lastMessageReceived: NOW - 25 * H }));
    expect(screen.getByTestId('chat-window')).toHaveAttribute('data-state', 'closed');
    expect(screen.getByTestId('chat-window-tag')).toHaveTextContent(
      'Fora da janela, as mensagens vão com a etiqueta de agente humano (até 7 dias',
    );
  });

  it('is absent on other channel types', () => {
    render(ticketFixture(10));
    expect(screen.queryByTestId('chat-window')).toBeNull();
    expect(screen.getByText('sem janela')).toBeInTheDocument();
  });
});
