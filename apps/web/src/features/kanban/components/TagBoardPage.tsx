import { Alert, Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { QueryError } from '../../../components/QueryError';
import { useActiveTags } from '../../../lib/tags';
import { Board } from './Board';
import { useBoardSearch } from './KanbanLayout';

/** /kanban/tags: one column per active tag; a card moved loses the tag it left and gains the one it joined. */
export function TagBoardPage() {
  const { t } = useTranslation();
  const search = useBoardSearch();
  const tags = useActiveTags();
  if (tags.isPending) {
    return (
      <Center h={200} role="status">
        <Loader aria-label={t('common.loading')} />
      </Center>
    );
  }
  if (tags.isError) return <QueryError error={tags.error} onRetry={() => void tags.refetch()} />;
  if (tags.data.length === 0) {
    return (
      <Alert variant="light" color="blue" data-testid="kanban-no-tags">
        {t('kanban.board.noTags')}
      </Alert>
    );
  }
  return (
    <Board
      kind="tags"
      columns={tags.data.map((tag) => ({ id: tag.id, name: tag.tag, color: tag.color }))}
      search={search}
    />
  );
}
