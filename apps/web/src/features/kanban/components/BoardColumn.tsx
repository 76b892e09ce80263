import { Badge, Box, Center, Group, Loader, Paper, Text, Title } from '@mantine/core';
import { useDroppable } from '@dnd-kit/core';
import { useTranslation } from 'react-i18next';
import { Virtuoso } from 'react-virtuoso';
import type { KanbanCard } from '@conversa/shared';
import { describeError } from '../../../lib/api';
import { useBoardColumn } from '../api/board';
import type { BoardKind, ColumnId } from '../hooks/board-cache';
import { BoardCard } from './BoardCard';

export interface ColumnInfo {
  id: ColumnId;
  name: string;
  color?: string;
}

/** Every column's body is as tall as the screen allows, with cards or without. */
const BODY = { height: 'calc(100vh - 300px)', minHeight: 240 };

export const droppableId = (kind: BoardKind, column: ColumnId) => `column-${kind}-${column}`;

/** One column: its cards virtualised and read page by page as the list scrolls (a lane of 10,000 stays smooth). */
export function BoardColumn({
  kind,
  column,
  search,
  onOpen,
}: {
  kind: BoardKind;
  column: ColumnInfo;
  search: string;
  onOpen: (card: KanbanCard) => void;
}) {
  const { t } = useTranslation();
  const { setNodeRef, isOver } = useDroppable({ id: droppableId(kind, column.id), data: { column: column.id } });
  const query = useBoardColumn(kind, column.id, search);
  const cards = query.data?.pages.flatMap((page) => page.contacts) ?? [];
  const more = query.data?.pages.at(-1)?.hasMore ?? false;
  const headingId = `kanban-column-title-${kind}-${column.id}`;
  return (
    <Paper
      ref={setNodeRef}
      component="section"
      aria-labelledby={headingId}
      withBorder
      radius="md"
      p="sm"
      w={290}
      miw={290}
      bg={isOver ? 'var(--mantine-primary-color-light)' : 'var(--mantine-color-default-hover)'}
      style={{ outline: isOver ? '2px solid var(--mantine-primary-color-filled)' : undefined }}
      data-testid={`kanban-column-${column.id}`}
      data-over={isOver || undefined}
    >
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
          {column.color ? (
            <Box w={10} h={10} style={{ borderRadius: 10, background: column.color, flex: 'none' }} aria-hidden />
          ) : null}
          <Title order={2} size="h5" id={headingId} lineClamp={1} title={column.name}>
            {column.name}
          </Title>
        </Group>
        <Badge
          variant="light"
          color="gray"
          aria-label={t('kanban.board.count', { count: cards.length, more: more ? '+' : '' })}
        >
          {cards.length}
          {more ? '+' : ''}
        </Badge>
      </Group>
      {query.isPending ? (
        <Center style={BODY} role="status" aria-live="polite">
          <Loader size="sm" aria-label={t('common.loading')} />
        </Center>
      ) : query.isError ? (
        <Text size="sm" c="dimmed" role="alert">
          {describeError(query.error)}
        </Text>
      ) : cards.length === 0 ? (
        <Center style={BODY}>
          <Text size="sm" c="dimmed" ta="center">
            {search ? t('kanban.board.noMatch') : t('kanban.board.emptyColumn')}
          </Text>
        </Center>
      ) : (
        <Virtuoso
          style={BODY}
          data={cards}
          // A new search is a new list: no item of the old one is reused (Virtuoso may ask for an index past the new data).
          key={search}
          computeItemKey={(index, card: KanbanCard | undefined) => card?.id ?? `empty-${index}`}
          endReached={() => {
            if (query.hasNextPage && !query.isFetchingNextPage) void query.fetchNextPage();
          }}
          increaseViewportBy={300}
          itemContent={(_, card: KanbanCard | undefined) =>
            card ? <BoardCard kind={kind} card={card} column={column.id} onOpen={onOpen} /> : null
          }
        />
      )}
      {query.isFetchingNextPage ? (
        <Center py="xs">
          <Loader size="xs" aria-label={t('common.loading')} />
        </Center>
      ) : null}
    </Paper>
  );
}
