import { useState } from 'react';
import { Button, Text } from '@mantine/core';
import { IconBolt, IconPlus } from '@tabler/icons-react';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import type { QuickMessageDto } from '@conversa/shared';
import { confirmDelete } from '../../../components/confirmDelete';
import { PageTitle } from '../../../components/PageTitle';
import { QueryError } from '../../../components/QueryError';
import { RowActions } from '../../../components/RowActions';
import { notifySuccess } from '../../../lib/notify';
import { useQuickMessages } from '../../../lib/quick-messages';
import { useStoredSession } from '../../../lib/storage';
import { useDeleteQuickMessage } from '../api/quick-messages';
import { QuickMessageFile } from './QuickMessageFile';
import { QuickMessageFormModal } from './QuickMessageFormModal';

/**
 * /mensagens-rapidas: the tenant's quick messages (the shortcut typed after `/` in the chat, its text and an optional
 * file or voice note). Supervisors and admins change them; agents read them.
 */
export function QuickMessagesPage() {
  const { t } = useTranslation();
  const session = useStoredSession();
  const canEdit = session?.profile === 'super' || session?.profile === 'admin';
  const [editing, setEditing] = useState<{ quick?: QuickMessageDto } | null>(null);
  const list = useQuickMessages();
  const remove = useDeleteQuickMessage();

  const askDelete = (quick: QuickMessageDto) =>
    confirmDelete({
      title: t('quickMessages.deleteTitle'),
      message: t('quickMessages.deleteConfirm', { key: `/${quick.key}` }),
      onConfirm: () => remove.mutate(quick.id, { onSuccess: () => notifySuccess(t('quickMessages.deleted')) }),
    });

  const actionsColumn: DataTableColumn<QuickMessageDto> = {
    accessor: 'actions',
    title: <span className="visually-hidden">{t('common.actions')}</span>,
    textAlign: 'right',
    width: 110,
    render: (quick) => (
      <RowActions
        id={quick.id}
        testIdPrefix="quick"
        editLabel={t('quickMessages.editItem', { key: `/${quick.key}` })}
        onEdit={() => setEditing({ quick })}
        deleteLabel={t('quickMessages.deleteItem', { key: `/${quick.key}` })}
        onDelete={() => askDelete(quick)}
      />
    ),
  };

  const columns: DataTableColumn<QuickMessageDto>[] = [
    {
      accessor: 'key',
      title: t('quickMessages.key'),
      width: 180,
      render: (quick) => (
        <Text size="sm" fw={600} ff="monospace" c={quick.isActive ? undefined : 'dimmed'}>
          /{quick.key}
        </Text>
      ),
    },
    {
      accessor: 'message',
      title: t('quickMessages.message'),
      render: (quick) =>
        quick.message ? (
          <Text size="sm" lineClamp={2} style={{ whiteSpace: 'pre-wrap' }}>
            {quick.message}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            {t('quickMessages.noText')}
          </Text>
        ),
    },
    {
      accessor: 'media',
      title: t('quickMessages.file'),
      width: 260,
      render: (quick) => <QuickMessageFile quick={quick} />,
    },
    ...(canEdit ? [actionsColumn] : []),
  ];

  return (
    <>
      <PageTitle
        title={t('quickMessages.title')}
        description={canEdit ? t('quickMessages.subtitle') : t('quickMessages.subtitleReadOnly')}
        actions={
          canEdit ? (
            <Button
              leftSection={<IconPlus size={16} aria-hidden />}
              onClick={() => setEditing({})}
              data-testid="quick-new"
            >
              {t('quickMessages.new')}
            </Button>
          ) : null
        }
      />
      {list.isError && !list.data ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <DataTable<QuickMessageDto>
          data-testid="quick-table"
          aria-label={t('quickMessages.title')}
          withTableBorder
          borderRadius="md"
          highlightOnHover
          minHeight={list.data?.length ? undefined : 220}
          fetching={list.isFetching}
          noRecordsText={t('quickMessages.empty')}
          noRecordsIcon={<IconBolt size={32} aria-hidden />}
          records={list.data ?? []}
          customRowAttributes={(quick) => ({ 'data-testid': `quick-row-${quick.id}` })}
          columns={columns}
        />
      )}
      <QuickMessageFormModal opened={editing !== null} onClose={() => setEditing(null)} quick={editing?.quick} />
    </>
  );
}
