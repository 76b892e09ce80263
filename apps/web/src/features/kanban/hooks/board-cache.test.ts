import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { ColumnPage, KanbanCard } from '@conversa/shared';
import { contactFixture } from '../../../test/contacts';
import { boardRealtime } from './use-board-live';
import { columnKey, insertCard, moveCard, type ColumnData } from './board-cache';
import type { AppSocket } from '../../../lib/socket';

const card = (id: number, name: string, kanban: number | null = null): KanbanCard => ({
  id,
  name,
  pushname: null,
  number: null,
  profilePicUrl: null,
  isGroup: false,
  kanban,
});
const data = (...pages: ColumnPage[]): ColumnData => ({ pages, pageParams: pages.map((_, i) => (i ? `c${i}` : null)) });
const page = (hasMore: boolean, ...contacts: KanbanCard[]): ColumnPage => ({
  contacts,
  hasMore,
  nextCursor: hasMore ? 'next' : null,
});
const names = (d: ColumnData | undefined) => d?.pages.flatMap((p) => p.contacts.map((c) => c.name));

describe('board cache', () => {
  it('inserts a lane card in name order; past the loaded range of a column with more pages it waits for them', () => {
    const loaded = data(page(true, card(1, 'Ana'), card(2, 'Caio')));
    expect(names(insertCard('lanes', loaded, card(3, 'Bia')))).toEqual(['Ana', 'Bia', 'Caio']);
    expect(names(insertCard('lanes', loaded, card(4, 'Zeca')))).toEqual(['Ana', 'Caio']);
    const complete = data(page(false, card(1, 'Ana')));
    expect(names(insertCard('lanes', complete, card(4, 'Zeca')))).toEqual(['Ana', 'Zeca']);
    // Equal names: by id. A newer copy of a card replaces the old one.
    const twins = data(page(false, card(5, 'Bia'), card(9, 'Bia')));
    expect(insertCard('lanes', twins, card(7, 'Bia')).pages[0]!.contacts.map((c) => c.id)).toEqual([5, 7, 9]);
    expect(names(insertCard('lanes', twins, card(5, 'Ana')))).toEqual(['Ana', 'Bia']);
  });

  it('a tag move changes only the two columns: the card keeps its other tags', () => {
    const qc = new QueryClient();
    const ana = card(1, 'Ana');
    qc.setQueryData(columnKey('tags', 10, ''), data(page(false, ana)));
    qc.setQueryData(columnKey('tags', 20, ''), data(page(false)));
    qc.setQueryData(columnKey('tags', 30, ''), data(page(false, ana)));
    moveCard(qc, 'tags', ana, 10, 20);
    expect(names(qc.getQueryData(columnKey('tags', 10, '')))).toEqual([]);
    expect(names(qc.getQueryData(columnKey('tags', 20, '')))).toEqual(['Ana']);
    expect(names(qc.getQueryData(columnKey('tags', 30, '')))).toEqual(['Ana']);
  });

  it('a contact:update from the socket moves the card on both boards; contact:delete removes it', () => {
    const qc = new QueryClient();
    qc.setQueryData(columnKey('lanes', 'none', ''), data(page(false, card(1, 'Ana'))));
    qc.setQueryData(columnKey('lanes', 2, ''), data(page(false)));
    qc.setQueryData(columnKey('tags', 7, ''), data(page(false)));
    const handlers = new Map<string, (payload: unknown) => void>();
    const socket = {
      on: (event: string, fn: (payload: unknown) => void) => handlers.set(event, fn),
      off: (event: string) => handlers.delete(event),
    } as unknown as AppSocket;
    const stop = boardRealtime(socket, qc, 1);
    const contact = contactFixture(1, {
      name: 'Ana',
      kanban: 2,
      tags: [{ id: 7, tag: 'Quente', color: '#f00' }],
    });
    handlers.get('1:contactList')!({ type: 'contact:update', payload: contact });
    expect(names(qc.getQueryData(columnKey('lanes', 'none', '')))).toEqual([]);
    expect(names(qc.getQueryData(columnKey('lanes', 2, '')))).toEqual(['Ana']);
    expect(names(qc.getQueryData(columnKey('tags', 7, '')))).toEqual(['Ana']);
    handlers.get('1:contactList')!({ type: 'contact:delete', payload: { id: 1 } });
    expect(names(qc.getQueryData(columnKey('lanes', 2, '')))).toEqual([]);
    expect(names(qc.getQueryData(columnKey('tags', 7, '')))).toEqual([]);
    stop();
    expect(handlers.size).toBe(0);
  });
});
