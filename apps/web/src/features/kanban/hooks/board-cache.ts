/**
 * The boards' cached columns: one infinite query per column (`['kanban-board', kind, column, search]`, pages of
 * ColumnPage). A move or a live contact update takes the card out of the columns it left and puts it, in order, into
 * the loaded range of the column it joined; a card that sorts past a column's loaded range comes with a later page.
 */
import type { InfiniteData, QueryClient, QueryKey } from '@tanstack/react-query';
import type { ColumnPage, ContactDto, KanbanCard } from '@conversa/shared';

export type BoardKind = 'lanes' | 'tags';
/** A lane's id or `none` (no lane) on the lanes board; a tag's id on the tags board. */
export type ColumnId = number | 'none';
export type ColumnData = InfiniteData<ColumnPage, string | null>;

export const boardPrefix = (kind: BoardKind) => ['kanban-board', kind] as const;
export const columnKey = (kind: BoardKind, column: ColumnId, search: string) =>
  ['kanban-board', kind, column, search] as const;

/** The server's order in a column: lanes by (name, id), tags by contact id. */
export function compareCards(kind: BoardKind, a: KanbanCard, b: KanbanCard): number {
  if (kind === 'lanes' && a.name !== b.name) return a.name < b.name ? -1 : 1;
  return a.id - b.id;
}

export function removeCard(data: ColumnData, id: number): ColumnData {
  if (!data.pages.some((page) => page.contacts.some((card) => card.id === id))) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({ ...page, contacts: page.contacts.filter((c) => c.id !== id) })),
  };
}

/** Puts the card in its place among the loaded cards (replacing an older copy); past the loaded range, leaves it. */
export function insertCard(kind: BoardKind, data: ColumnData, card: KanbanCard): ColumnData {
  const without = removeCard(data, card.id);
  const pages = without.pages;
  const last = pages[pages.length - 1];
  const lastCard = [...pages]
    .reverse()
    .find((page) => page.contacts.length > 0)
    ?.contacts.at(-1);
  if (last?.hasMore && lastCard && compareCards(kind, card, lastCard) > 0) return without;
  let placed = false;
  const next = pages.map((page, index) => {
    if (placed) return page;
    const at = page.contacts.findIndex((other) => compareCards(kind, card, other) < 0);
    if (at === -1 && index < pages.length - 1) return page;
    placed = true;
    const contacts = [...page.contacts];
    contacts.splice(at === -1 ? contacts.length : at, 0, card);
    return { ...page, contacts };
  });
  return { ...without, pages: next };
}

export const toCard = (contact: ContactDto): KanbanCard => ({
  id: contact.id,
  name: contact.name,
  pushname: contact.pushname,
  number: contact.number,
  profilePicUrl: contact.profilePicUrl,
  isGroup: contact.isGroup,
  kanban: contact.kanban,
});

/** The columns a contact's card belongs to on a board. */
const columnsOf = (kind: BoardKind, contact: Pick<ContactDto, 'kanban' | 'tags'>): Set<ColumnId> =>
  kind === 'lanes' ? new Set([contact.kanban ?? 'none']) : new Set(contact.tags.map((tag) => tag.id));

/** Whether a search column (key[3]) would show the card: its name or number holds the term. */
function matchesSearch(card: KanbanCard, search: string): boolean {
  if (!search) return true;
  const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  return fold(card.name).includes(fold(search)) || (card.number ?? '').includes(search.replace(/\D/g, '') || '\0');
}

/** Every cached column of a board: the card leaves those it is not in and joins those it is in. */
export function placeCard(
  queryClient: QueryClient,
  kind: BoardKind,
  card: KanbanCard,
  columns: ReadonlySet<ColumnId>,
): void {
  for (const [key, data] of queryClient.getQueriesData<ColumnData>({ queryKey: boardPrefix(kind) })) {
    if (!data) continue;
    const [, , column, search] = key as ReturnType<typeof columnKey>;
    const next =
      columns.has(column) && matchesSearch(card, search) ? insertCard(kind, data, card) : removeCard(data, card.id);
    if (next !== data) queryClient.setQueryData(key, next);
  }
}

/** A card moved from one column to another: only those two columns change (a tag card stays in its other tags). */
export function moveCard(queryClient: QueryClient, kind: BoardKind, card: KanbanCard, from: ColumnId, to: ColumnId) {
  for (const [key, data] of queryClient.getQueriesData<ColumnData>({ queryKey: boardPrefix(kind) })) {
    if (!data) continue;
    const [, , column, search] = key as ReturnType<typeof columnKey>;
    if (column === to && matchesSearch(card, search)) queryClient.setQueryData(key, insertCard(kind, data, card));
    else if (column === from || column === to) queryClient.setQueryData(key, removeCard(data, card.id));
  }
}

/** A contact saved here or elsewhere (`contact:update`): both boards follow it. */
export function applyContactToBoards(queryClient: QueryClient, contact: ContactDto): void {
  const card = toCard(contact);
  placeCard(queryClient, 'lanes', card, columnsOf('lanes', contact));
  placeCard(queryClient, 'tags', card, columnsOf('tags', contact));
}

export function removeContactFromBoards(queryClient: QueryClient, id: number): void {
  for (const [key, data] of queryClient.getQueriesData<ColumnData>({ queryKey: ['kanban-board'] })) {
    if (data) queryClient.setQueryData(key, removeCard(data, id));
  }
}

/** The board's cached columns, to put back when a move fails. */
export function snapshotBoard(queryClient: QueryClient, kind: BoardKind): [QueryKey, ColumnData | undefined][] {
  return queryClient.getQueriesData<ColumnData>({ queryKey: boardPrefix(kind) });
}

export function restoreBoard(queryClient: QueryClient, snapshot: [QueryKey, ColumnData | undefined][]): void {
  for (const [key, data] of snapshot) queryClient.setQueryData(key, data);
}
