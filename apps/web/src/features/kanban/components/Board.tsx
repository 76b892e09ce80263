import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Group, ScrollArea } from '@mantine/core';
import {
  DndContext,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  rectIntersection,
  useSensor,
  useSensors,
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
} from '@dnd-kit/core';
import { useTranslation } from 'react-i18next';
import type { KanbanCard } from '@conversa/shared';
import { useMoveCard } from '../api/board';
import type { BoardKind, ColumnId } from '../hooks/board-cache';
import { useBoardLive } from '../hooks/use-board-live';
import { CardFace, type CardData } from './BoardCard';
import { BoardColumn, droppableId, type ColumnInfo } from './BoardColumn';
import { ContactPreviewModal } from './ContactPreviewModal';

/** Space picks a card up and drops it; Enter is left to open the card. */
const KEYBOARD_CODES = { start: ['Space'], cancel: ['Escape'], end: ['Space', 'Enter'] };

/**
 * A board: one column per lane (or tag), cards dragged between them with the pointer or the keyboard (Space, then
 * ArrowLeft/ArrowRight from column to column, Space to drop, Escape to cancel), announced in the user's language.
 * The keyboard moves column by column whatever the geometry, so it works the same in any layout (and in jsdom).
 */
export function Board({ kind, columns, search }: { kind: BoardKind; columns: ColumnInfo[]; search: string }) {
  const { t } = useTranslation();
  useBoardLive();
  const move = useMoveCard(kind);
  const [active, setActive] = useState<KanbanCard | null>(null);
  const [opened, setOpened] = useState<KanbanCard | null>(null);
  // The column a keyboard drag points at (index into columns); null while the pointer drags.
  const keyboardTarget = useRef<number | null>(null);
  const columnsRef = useRef(columns);
  useLayoutEffect(() => {
    columnsRef.current = columns;
  });

  const coordinateGetter: KeyboardCoordinateGetter = (event, { currentCoordinates }) => {
    const step = event.code === 'ArrowRight' ? 1 : event.code === 'ArrowLeft' ? -1 : 0;
    if (step === 0 || keyboardTarget.current === null) return undefined;
    event.preventDefault();
    const next = Math.min(Math.max(keyboardTarget.current + step, 0), columnsRef.current.length - 1);
    keyboardTarget.current = next;
    const target = columnsRef.current[next];
    if (target)
      document
        .getElementById(`kanban-column-title-${kind}-${target.id}`)
        ?.scrollIntoView?.({ inline: 'nearest', block: 'nearest' });
    // A nudge makes dnd-kit re-run the collision detection, which reads the target column above.
    return { x: currentCoordinates.x + step, y: currentCoordinates.y };
  };
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter, keyboardCodes: KEYBOARD_CODES }),
  );

  const collisionDetection: CollisionDetection = (args) => {
    const target = keyboardTarget.current === null ? undefined : columnsRef.current[keyboardTarget.current];
    if (target) return [{ id: droppableId(kind, target.id) }];
    const within = pointerWithin(args);
    return within.length > 0 ? within : rectIntersection(args);
  };

  const nameOf = (column: ColumnId | undefined) => columns.find((c) => c.id === column)?.name ?? '';
  // dnd-kit answers empty data for a card whose node went away mid-drag (its column re-read): no card then.
  const dataOf = (data: { current?: unknown } | undefined) => {
    const current = data?.current as Partial<CardData> | undefined;
    return current?.card ? (current as CardData) : undefined;
  };
  const columnOf = (data: { current?: unknown } | undefined) =>
    (data?.current as { column?: ColumnId } | undefined)?.column;

  const announcements: Announcements = useMemo(
    () => ({
      onDragStart: ({ active: a }) =>
        t('kanban.dnd.picked', { name: dataOf(a.data)?.card.name, column: nameOf(dataOf(a.data)?.column) }),
      onDragOver: ({ active: a, over }) =>
        over
          ? t('kanban.dnd.over', { name: dataOf(a.data)?.card.name, column: nameOf(columnOf(over.data)) })
          : t('kanban.dnd.outside', { name: dataOf(a.data)?.card.name }),
      onDragEnd: ({ active: a, over }) =>
        over
          ? t('kanban.dnd.dropped', { name: dataOf(a.data)?.card.name, column: nameOf(columnOf(over.data)) })
          : t('kanban.dnd.cancelled', { name: dataOf(a.data)?.card.name }),
      onDragCancel: ({ active: a }) => t('kanban.dnd.cancelled', { name: dataOf(a.data)?.card.name }),
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, columns],
  );

  const onDragStart = ({ active: a, activatorEvent }: DragStartEvent) => {
    const data = dataOf(a.data);
    setActive(data?.card ?? null);
    keyboardTarget.current =
      activatorEvent instanceof KeyboardEvent ? columns.findIndex((c) => c.id === data?.column) : null;
  };
  const onDragEnd = ({ active: a, over }: DragEndEvent) => {
    keyboardTarget.current = null;
    setActive(null);
    const data = dataOf(a.data);
    const to = columnOf(over?.data);
    if (!data || to === undefined || to === data.column) return;
    move.mutate({ card: data.card, from: data.column, to, toName: nameOf(to) });
  };
  const onDragCancel = () => {
    keyboardTarget.current = null;
    setActive(null);
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={collisionDetection}
      onDragStart={onDragStart}
      onDragEnd={onDragEnd}
      onDragCancel={onDragCancel}
      accessibility={{ announcements, screenReaderInstructions: { draggable: t('kanban.dnd.instructions') } }}
    >
      <ScrollArea type="auto" offsetScrollbars scrollbarSize={10}>
        <Group align="flex-start" wrap="nowrap" gap="md" pb="sm" data-testid={`kanban-board-${kind}`}>
          {columns.map((column) => (
            <BoardColumn key={String(column.id)} kind={kind} column={column} search={search} onOpen={setOpened} />
          ))}
        </Group>
      </ScrollArea>
      <DragOverlay dropAnimation={null}>
        {active ? (
          <div
            className="kanban-card-overlay"
            style={{
              background: 'var(--mantine-color-body)',
              borderRadius: 8,
              padding: 8,
              boxShadow: 'var(--mantine-shadow-md)',
              width: 270,
            }}
          >
            <CardFace card={active} />
          </div>
        ) : null}
      </DragOverlay>
      <ContactPreviewModal contactId={opened?.id ?? null} onClose={() => setOpened(null)} />
    </DndContext>
  );
}
