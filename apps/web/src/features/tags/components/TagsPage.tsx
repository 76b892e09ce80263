import { useState } from 'react';
import { Badge, Button, ColorSwatch, Group, Text } from '@mantine/core';
import { IconTags, IconPlus } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import type { TagDto } from '@conversa/shared';
import { confirmDelete } from '../../../components/confirmDelete';
import { PageTitle } from '../../../components/PageTitle';
import { QueryError } from '../../../components/QueryError';
import { RowActions } from '../../../components/RowActions';
import { notifySuccess } from '../../../lib/notify';
import { useAllTags, useDeleteTag } from '../api/tags';
import { TagFormModal } from './TagFormModal';

/**
 * /etiquetas: the tenant's tags with their colours (supervisors and admins). A tag that contacts carry cannot be
 * deleted (the server's 409 text is the toast). Changes by others arrive over `{T}:tag`.
 */
export function TagsPage() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<{ tag?: TagDto } | null>(null);
  const list = useAllTags();
  const remove = useDeleteTag();

  const askDelete = (tag: TagDto) =>
    confirmDelete({
      title: t('org.tags.deleteTitle'),
      message: t('org.tags.deleteConfirm', { name: tag.tag }),
      onConfirm: () => remove.mutate(tag.id, { onSuccess: () => notifySuccess(t('org.tags.deleted')) }),
    });

  return (
    <>
      <PageTitle
        title={t('org.tags.title')}
        description={t('org.tags.subtitle')}
        actions={
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => setEditing({})}
            data-testid="tags-new"
          >
            {t('org.tags.new')}
          </Button>
        }
      />
      {list.isError && !list.data ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <DataTable<TagDto>
          data-testid="tags-table"
          aria-label={t('org.tags.title')}
          withTableBorder
          borderRadius="md"
          highlightOnHover
          minHeight={list.data?.length ? undefined : 220}
          fetching={list.isPending}
          noRecordsText={t('org.tags.empty')}
          noRecordsIcon={<IconTags size={32} aria-hidden />}
          records={list.data ?? []}
          customRowAttributes={(tag) => ({ 'data-testid': `tag-row-${tag.id}` })}
          columns={[
            {
              accessor: 'tag',
              title: t('org.tags.name'),
              render: (tag) => (
                <Group gap="sm" wrap="nowrap">
                  <ColorSwatch color={tag.color} size={20} aria-hidden data-testid={`tag-swatch-${tag.id}`} />
                  <Text size="sm" fw={500}>
                    {tag.tag}
                  </Text>
                  <Text size="xs" c="dimmed" ff="monospace">
                    {tag.color}
                  </Text>
                </Group>
              ),
            },
            {
              accessor: 'isActive',
              title: t('org.status'),
              width: 140,
              render: (tag) => (
                <Badge variant="light" color={tag.isActive ? 'teal' : 'gray'}>
                  {tag.isActive ? t('org.active') : t('org.inactive')}
                </Badge>
              ),
            },
            {
              accessor: 'actions',
              title: <span className="visually-hidden">{t('common.actions')}</span>,
              textAlign: 'right',
              width: 110,
              render: (tag) => (
                <RowActions
                  id={tag.id}
                  testIdPrefix="tag"
                  editLabel={t('org.tags.editItem', { name: tag.tag })}
                  onEdit={() => setEditing({ tag })}
                  deleteLabel={t('org.tags.deleteItem', { name: tag.tag })}
                  onDelete={() => askDelete(tag)}
                />
              ),
            },
          ]}
        />
      )}
      <TagFormModal opened={editing !== null} onClose={() => setEditing(null)} tag={editing?.tag} />
    </>
  );
}
