/**
 * A ticket found by message text (GET /tickets?searchParam answers `searchMatch`): its row shows the message with the
 * term's words marked and its time, opening it (click or keyboard) names the message, and the chat opens scrolled to
 * that message, loading older pages until it is there, highlighted and focused.
 */
import { useState } from 'react';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { VirtuosoMockContext } from 'react-virtuoso';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MessageDto } from '@conversa/shared';
import { renderWithProviders } from '../../../test/render';
import { ticketFixture as rowFixture } from '../../../test/tickets';
import { SearchTermContext, searchSnippet } from '../hooks/search-match';
import { messageFixture } from './chat/chat-fixtures';
import { MessageList } from './chat/MessageList';
import { TicketListItem } from './TicketListItem';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));

const match = {
  id: 55,
  body: 'Bom dia! O meu pedido chegou com defeito, podem trocar?',
  createdAt: '2026-03-10T14:05:00Z',
};

describe('search snippet', () => {
  it('marks the words the search matched, accents and case aside, prefixes and plurals', () => {
    const marked = (body: string, term: string) =>
      searchSnippet(body, term)
        .filter((part) => part.marked)
        .map((part) => part.text);
    expect(marked('Preciso de uma AÇÃO rápida', 'acao rapi')).toEqual(['AÇÃO', 'rápida']);
    expect(marked('O pedido chegou', 'pedidos')).toEqual(['pedido']);
    expect(marked('O pedido chegou', 'boleto')).toEqual([]);
  });

  it('starts a long message near its first match', () => {
    const body = `${'palavra '.repeat(20)}encontrada aqui`;
    const parts = searchSnippet(body, 'encontrada');
    expect(parts[0]).toEqual({ text: '…', marked: false });
    expect(parts.map((part) => part.text).join('').length).toBeLessThan(body.length);
    expect(parts.find((part) => part.marked)?.text).toBe('encontrada');
  });
});

describe('ticket row found by message text', () => {
  it('shows the matching message with the term marked and its time, and opens at it', () => {
    const onOpen = vi.fn();
    renderWithProviders(
      <SearchTermContext.Provider value="pedidos">
        <ul>
          <TicketListItem
            ticket={{ ...rowFixture(1), searchMatch: match }}
            selected={false}
            tabbable
            accepting={false}
            onOpen={onOpen}
            onAccept={() => undefined}
          />
        </ul>
      </SearchTermContext.Provider>,
    );
    const line = screen.getByTestId('ticket-search-match-1');
    expect(line).toHaveTextContent('Mensagem encontrada: Bom dia! O meu pedido chegou com defeito, podem trocar?');
    expect(line.querySelector('mark')).toHaveTextContent(/^pedido$/);
    expect(line).toHaveTextContent(/enviada em \d\d\/\d\d|enviada em \d\d:\d\d/);
    const row = screen.getByTestId('ticket-row-1');
    fireEvent.click(row);
    expect(onOpen).toHaveBeenLastCalledWith(1, 55);
    fireEvent.keyDown(row, { key: 'Enter' });
    expect(onOpen).toHaveBeenCalledTimes(2);
    expect(onOpen).toHaveBeenLastCalledWith(1, 55);
  });

  it('shows no match line for a ticket found by its contact', () => {
    renderWithProviders(
      <ul>
        <TicketListItem
          ticket={rowFixture(2)}
          selected={false}
          tabbable
          accepting={false}
          onOpen={() => undefined}
          onAccept={() => undefined}
        />
      </ul>,
    );
    expect(screen.queryByTestId('ticket-search-match-2')).toBeNull();
  });
});

describe('chat opened at a search match', { timeout: 30_000 }, () => {
  beforeEach(() => {
    // jsdom has no scrolling; Virtuoso keeps the position with scrollBy when older pages are prepended.
    Element.prototype.scrollBy ??= () => undefined;
  });

  // Every handler a bubble may call, as spies (a Proxy: the list passes them through untouched).
  const handlers = new Proxy({}, { get: () => vi.fn() }) as Parameters<typeof MessageList>[0]['handlers'];
  // jsdom does not scroll: the first page shows only its end (its top out of view, so Virtuoso never asks for older
  // pages itself); once the older page is there, the viewport holds every message.
  const listOf = (items: MessageDto[], olderCount: number, onLoadOlder: () => void) => (
    <VirtuosoMockContext.Provider value={{ viewportHeight: olderCount === 0 ? 300 : 3000, itemHeight: 60 }}>
      <MessageList
        items={items}
        olderCount={olderCount}
        offlineIds={new Set()}
        isGroup={false}
        isLoading={false}
        error={null}
        onRetryLoad={() => undefined}
        hasOlder={olderCount === 0}
        loadingOlder={false}
        onLoadOlder={onLoadOlder}
        selectMode={false}
        selectedIds={new Set()}
        handlers={handlers}
        focusMessageId={45}
      />
    </VirtuosoMockContext.Provider>
  );

  it('loads older pages until the message is there, then highlights and focuses it', async () => {
    // A full page whose top is out of view: nothing but the search's target asks for the older page.
    const newest = Array.from({ length: 30 }, (_, i) => messageFixture(100 + i, { body: `m${i}` }));
    const older = [messageFixture(45, { body: 'o pedido chegou com defeito' }), messageFixture(46)];
    let showOlder: () => void = () => undefined;
    const onLoadOlder = vi.fn();
    function Chat() {
      const [loaded, setLoaded] = useState(false);
      showOlder = () => setLoaded(true);
      return loaded ? listOf([...older, ...newest], older.length, onLoadOlder) : listOf(newest, 0, onLoadOlder);
    }
    renderWithProviders(<Chat />);
    await waitFor(() => expect(onLoadOlder).toHaveBeenCalled());
    act(() => showOlder());
    const bubble = await screen.findByTestId('message-45');
    await waitFor(() => expect(document.activeElement).toBe(bubble));
    expect(bubble.innerHTML).toMatch(/highlight/);
    expect(onLoadOlder).toHaveBeenCalledTimes(1);
  });
});
