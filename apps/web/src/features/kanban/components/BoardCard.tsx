import type { KeyboardEvent } from 'react';
import { Avatar, Group, Paper, Stack, Text } from '@mantine/core';
import { useDraggable } from '@dnd-kit/core';
import type { KanbanCard } from '@conversa/shared';
import type { BoardKind, ColumnId } from '../hooks/board-cache';

export interface CardData {
  card: KanbanCard;
  column: ColumnId;
}

/** A contact on a board: drag it (pointer, or Space then the arrows) or open it (click, Enter). */
export function BoardCard({
  kind,
  card,
  column,
  onOpen,
}: {
  kind: BoardKind;
  card: KanbanCard;
  column: ColumnId;
  onOpen: (card: KanbanCard) => void;
}) {
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({
    id: `card-${kind}-${column}-${card.id}`,
    data: { card, column } satisfies CardData,
  });
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    listeners?.onKeyDown?.(event);
    if (event.key === 'Enter' && !event.defaultPrevented) onOpen(card);
  };
  return (
    <div style={{ paddingBottom: 8 }}>
      <Paper
        ref={setNodeRef}
        {...attributes}
        {...listeners}
        onKeyDown={onKeyDown}
        onClick={() => onOpen(card)}
        withBorder
        radius="md"
        p="xs"
        className="kanban-card"
        style={{ opacity: isDragging ? 0.4 : 1, cursor: 'grab' }}
        data-testid={`kanban-card-${card.id}`}
      >
        <CardFace card={card} />
      </Paper>
    </div>
  );
}

export function CardFace({ card }: { card: KanbanCard }) {
  return (
    <Group gap="sm" wrap="nowrap">
      <Avatar src={card.profilePicUrl} alt="" radius="xl" size="md" name={card.name} color="initials" />
      <Stack gap={0} style={{ minWidth: 0 }}>
        <Text size="sm" fw={600} truncate>
          {card.name}
        </Text>
        {card.number ? (
          <Text size="xs" c="dimmed" truncate>
            {card.number}
          </Text>
        ) : null}
      </Stack>
    </Group>
  );
}
