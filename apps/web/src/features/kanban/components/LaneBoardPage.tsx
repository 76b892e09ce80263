import { Alert, Anchor, Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { QueryError } from '../../../components/QueryError';
import { useStoredSession } from '../../../lib/storage';
import { useLanes } from '../api/lanes';
import { Board } from './Board';
import type { ColumnInfo } from './BoardColumn';
import { useBoardSearch } from './KanbanLayout';

/** /kanban/kanbans: "no lane" first, then one column per lane in the lanes' order. */
export function LaneBoardPage() {
  const { t } = useTranslation();
  const search = useBoardSearch();
  const lanes = useLanes();
  const session = useStoredSession();
  if (lanes.isPending) {
    return (
      <Center h={200} role="status">
        <Loader aria-label={t('common.loading')} />
      </Center>
    );
  }
  if (lanes.isError) return <QueryError error={lanes.error} onRetry={() => void lanes.refetch()} />;
  const columns: ColumnInfo[] = [
    { id: 'none', name: t('kanban.board.noLane') },
    ...lanes.data.map((lane) => ({ id: lane.id, name: lane.name })),
  ];
  const manages = session?.profile === 'super' || session?.profile === 'admin';
  return (
    <>
      {lanes.data.length === 0 ? (
        <Alert variant="light" color="blue" mb="md" data-testid="kanban-no-lanes">
          {t('kanban.board.noLanes')}{' '}
          {manages ? (
            // In the notice's own (readable) colour, told from the sentence by its underline and weight: the primary
            // colour on the light blue notice was 4.0:1 (axe color-contrast), a bare colour change link-in-text-block.
            <Anchor
              component={Link}
              to="/lanes"
              c="inherit"
              underline="always"
              fw={700}
              data-testid="kanban-no-lanes-link"
            >
              {t('kanban.board.createLanes')}
            </Anchor>
          ) : null}
        </Alert>
      ) : null}
      <Board kind="lanes" columns={columns} search={search} />
    </>
  );
}
