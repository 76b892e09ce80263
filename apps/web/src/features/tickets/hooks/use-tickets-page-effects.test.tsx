import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TicketListItem } from '@conversa/shared';
import { Providers } from '../../../test/render';
import { ticketFixture } from '../../../test/tickets';
import { useNewTicketAnnouncer } from './use-tickets-page-effects';

interface State {
  rows: TicketListItem[];
  listKey: string;
  pages: number;
  settled: boolean;
}

function Probe(state: State) {
  const region = useNewTicketAnnouncer(state.rows, state.listKey, state.pages, state.settled);
  return <div data-testid="live" ref={region} />;
}

function mount(first: State) {
  const view = render(
    <Providers>
      <Probe {...first} />
    </Providers>,
  );
  return {
    next: (state: State) =>
      view.rerender(
        <Providers>
          <Probe {...state} />
        </Providers>,
      ),
    text: () => view.getByTestId('live').textContent,
  };
}

const a = ticketFixture(1);
const b = ticketFixture(2);
const c = ticketFixture(3, { name: 'Carla Nova' });

describe('useNewTicketAnnouncer', () => {
  it('announces a ticket that joins the same list by itself', () => {
    const probe = mount({ rows: [a, b], listKey: 'k', pages: 1, settled: true });
    probe.next({ rows: [c, a, b], listKey: 'k', pages: 1, settled: true });
    expect(probe.text()).toBe('Novo ticket: Carla Nova');
  });

  it('stays quiet while a new filter loads behind the old rows and when its rows arrive', () => {
    const probe = mount({ rows: [a], listKey: 'k1', pages: 1, settled: true });
    probe.next({ rows: [a], listKey: 'k2', pages: 1, settled: false });
    probe.next({ rows: [b, c], listKey: 'k2', pages: 1, settled: true });
    expect(probe.text()).toBe('');
    // From there on a real arrival is announced again.
    probe.next({ rows: [ticketFixture(9, { name: 'Dora' }), b, c], listKey: 'k2', pages: 1, settled: true });
    expect(probe.text()).toBe('Novo ticket: Dora');
  });

  it('stays quiet when a filter applied here (tags, lanes) changes the rows, and for a further page', () => {
    const probe = mount({ rows: [a], listKey: 'tags:[1]', pages: 1, settled: true });
    probe.next({ rows: [a, b, c], listKey: 'tags:[]', pages: 1, settled: true });
    probe.next({ rows: [a, b, c, ticketFixture(4)], listKey: 'tags:[]', pages: 2, settled: true });
    expect(probe.text()).toBe('');
  });
});
