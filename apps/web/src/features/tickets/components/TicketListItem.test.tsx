import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/render';
import { ticketFixture } from '../../../test/tickets';
import { TicketListItem } from './TicketListItem';

const row = (
  unreadMessages: number,
  lastMessage = 'Uma prévia bem longa que ocupa toda a largura da linha do ticket',
) =>
  renderWithProviders(
    <ul>
      <TicketListItem
        ticket={ticketFixture(1, { unreadMessages, lastMessage })}
        selected={false}
        tabbable
        accepting={false}
        onOpen={() => undefined}
        onAccept={() => undefined}
      />
    </ul>,
  );

describe('ticket row unread badge', () => {
  it('shows two digits whole: the badge never shrinks beside a long preview', () => {
    row(39);
    const badge = screen.getByTestId('ticket-unread-1');
    expect(badge).toHaveTextContent(/^39$/);
    // The preview beside it truncates; the badge keeps its width (a shrunk badge clipped "39" to "3.").
    expect(badge.style.flexShrink).toBe('0');
    expect(badge).not.toHaveAttribute('data-circle');
  });

  it('shows 99 as it is', () => {
    row(99);
    expect(screen.getByTestId('ticket-unread-1')).toHaveTextContent(/^99$/);
  });

  it('caps at "99+" with the exact count in its name', () => {
    row(150);
    const badge = screen.getByTestId('ticket-unread-1');
    expect(badge).toHaveTextContent(/^99\+$/);
    expect(badge).toHaveAccessibleName(/150/);
  });

  it('is a circle for one digit and absent at zero', () => {
    const { unmount } = row(7);
    expect(screen.getByTestId('ticket-unread-1')).toHaveAttribute('data-circle');
    unmount();
    row(0);
    expect(screen.queryByTestId('ticket-unread-1')).toBeNull();
  });
});
