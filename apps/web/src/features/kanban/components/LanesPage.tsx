import { useState } from 'react';
import { Button, Text } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconLayoutKanban, IconPlus } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import type { LaneDto } from '@conversa/shared';
import { confirmDelete } from '../../../components/confirmDelete';
import { PageTitle } from '../../../components/PageTitle';
import { QueryError } from '../../../components/QueryError';
import { RowActions } from '../../../components/RowActions';
import { describeError } from '../../../lib/api';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useDeleteLane, useLanes, useOrderLanes } from '../api/lanes';
import { LaneFormModal } from './LaneFormModal';

/** The lanes with `lane` moved one place up (-1) or down (+1). */
export function shiftLane(lanes: readonly LaneDto[], lane: LaneDto, by: -1 | 1): LaneDto[] {
  const from = lanes.findIndex((l) => l.id === lane.id);
  const to = from + by;
  if (from === -1 || to < 0 || to >= lanes.length) return [...lanes];
  const next = [...lanes];
  [next[from], next[to]] = [next[to]!, next[from]!];
  return next;
}

/** /lanes: the kanban board's columns in order (supervisors and admins). Changes by others arrive over `{T}:kanban`. */
export function LanesPage() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<{ lane?: LaneDto } | null>(null);
  const list = useLanes();
  const remove = useDeleteLane();
  const order = useOrderLanes();
  const lanes = list.data ?? [];

  const move = (lane: LaneDto, by: -1 | 1) =>
    order.mutate(shiftLane(lanes, lane, by), {
      onSuccess: () => notifySuccess(t('kanban.lanes.reordered', { name: lane.name })),
      onError: (error) => notifyError(describeError(error)),
    });

  const askDelete = (lane: LaneDto) =>
    confirmDelete({
      title: t('kanban.lanes.deleteTitle'),
      message: t('kanban.lanes.deleteConfirm', { name: lane.name }),
      onConfirm: () => remove.mutate(lane.id, { onSuccess: () => notifySuccess(t('kanban.lanes.deleted')) }),
    });

  return (
    <>
      <PageTitle
        title={t('kanban.lanes.title')}
        description={t('kanban.lanes.subtitle')}
        actions={
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => setEditing({})}
            data-testid="lanes-new"
          >
            {t('kanban.lanes.new')}
          </Button>
        }
      />
      {list.isError && !list.data ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <DataTable<LaneDto>
          data-testid="lanes-table"
          aria-label={t('kanban.lanes.title')}
          withTableBorder
          borderRadius="md"
          highlightOnHover
          minHeight={lanes.length ? undefined : 220}
          fetching={list.isPending}
          noRecordsText={t('kanban.lanes.empty')}
          noRecordsIcon={<IconLayoutKanban size={32} aria-hidden />}
          records={lanes}
          customRowAttributes={(lane) => ({ 'data-testid': `lane-row-${lane.id}` })}
          columns={[
            {
              accessor: 'position',
              title: t('kanban.lanes.order'),
              width: 90,
              render: (lane) => <Text size="sm">{lanes.indexOf(lane) + 1}</Text>,
            },
            {
              accessor: 'name',
              title: t('kanban.lanes.name'),
              render: (lane) => (
                <Text size="sm" fw={500}>
                  {lane.name}
                </Text>
              ),
            },
            {
              accessor: 'actions',
              title: <span className="visually-hidden">{t('common.actions')}</span>,
              textAlign: 'right',
              width: 190,
              render: (lane) => {
                const index = lanes.indexOf(lane);
                return (
                  <RowActions
                    id={lane.id}
                    testIdPrefix="lane"
                    extra={[
                      {
                        label: t('kanban.lanes.moveUp'),
                        ariaLabel: t('kanban.lanes.moveUpItem', { name: lane.name }),
                        icon: <IconArrowUp size={18} aria-hidden />,
                        onClick: () => move(lane, -1),
                        testId: 'up',
                        disabled: index === 0 || order.isPending,
                      },
                      {
                        label: t('kanban.lanes.moveDown'),
                        ariaLabel: t('kanban.lanes.moveDownItem', { name: lane.name }),
                        icon: <IconArrowDown size={18} aria-hidden />,
                        onClick: () => move(lane, 1),
                        testId: 'down',
                        disabled: index === lanes.length - 1 || order.isPending,
                      },
                    ]}
                    editLabel={t('kanban.lanes.editItem', { name: lane.name })}
                    onEdit={() => setEditing({ lane })}
                    deleteLabel={t('kanban.lanes.deleteItem', { name: lane.name })}
                    onDelete={() => askDelete(lane)}
                  />
                );
              },
            },
          ]}
        />
      )}
      <LaneFormModal opened={editing !== null} onClose={() => setEditing(null)} lane={editing?.lane} />
    </>
  );
}
