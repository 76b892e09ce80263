/**
 * The boards' calls: a column page by page (`GET /kanban/{id}/contacts`, `GET /kanban-tags/{id}/contacts`, keyset
 * cursors) and the moves: a lane through `PUT /contacts/{id} { kanban }` (client-contract §21.6), a tag through
 * `POST /contacts/{id}/move-tag { from, to }`. Moves show at once and come back when the server refuses them.
 */
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { columnPageResponseSchema, contactDtoSchema, type ContactDto, type KanbanCard } from '@conversa/shared';
import { api, describeError } from '../../../lib/api';
import { notifyError, notifySuccess } from '../../../lib/notify';
import {
  applyContactToBoards,
  columnKey,
  moveCard,
  restoreBoard,
  snapshotBoard,
  type BoardKind,
  type ColumnId,
} from '../hooks/board-cache';

const columnPath = (kind: BoardKind, column: ColumnId) =>
  kind === 'lanes' ? `/kanban/${column}/contacts` : `/kanban-tags/${column}/contacts`;

export const useBoardColumn = (kind: BoardKind, column: ColumnId, search: string) =>
  useInfiniteQuery({
    queryKey: columnKey(kind, column, search),
    queryFn: async ({ pageParam }) =>
      columnPageResponseSchema.parse(
        await api.get(columnPath(kind, column), {
          query: { cursor: pageParam ?? undefined, searchParam: search || undefined },
          background: true,
        }),
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => (last.hasMore ? last.nextCursor : undefined),
  });

export interface CardMove {
  card: KanbanCard;
  from: ColumnId;
  to: ColumnId;
  /** The target column's name, for the toast. */
  toName: string;
}

export function useMoveCard(kind: BoardKind) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ card, from, to }: CardMove): Promise<ContactDto> =>
      contactDtoSchema.parse(
        kind === 'lanes'
          ? await api.put(`/contacts/${card.id}`, { kanban: to === 'none' ? null : to })
          : await api.post(`/contacts/${card.id}/move-tag`, { from, to }),
      ),
    onMutate: async ({ card, from, to }) => {
      await queryClient.cancelQueries({ queryKey: ['kanban-board', kind] });
      const snapshot = snapshotBoard(queryClient, kind);
      moveCard(queryClient, kind, kind === 'lanes' ? { ...card, kanban: to === 'none' ? null : to } : card, from, to);
      return { snapshot };
    },
    onError: (error, _move, context) => {
      if (context) restoreBoard(queryClient, context.snapshot);
      notifyError(describeError(error));
    },
    onSuccess: (contact, move) => {
      applyContactToBoards(queryClient, contact);
      notifySuccess(t('kanban.board.moved', { name: move.card.name, column: move.toName }));
    },
    meta: { handlesErrors: true },
  });
}
