import { useState } from 'react';
import { ActionIcon, Button, Group, Text, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconBolt, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import type { QuickMessageDto } from '@conversa/shared';
import { PageTitle } from '../../../components/PageTitle';
import { QueryError } from '../../../components/QueryError';
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

  const confirmDelete = (quick: QuickMessageDto) =>
    modals.openConfirmModal({
      title: t('quickMessages.deleteTitle'),
      children: <Text size="sm">{t('quickMessages.deleteConfirm', { key: `/${quick.key}` })}</Text>,
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-delete' } as Record<string, unknown>,
      cancelProps: { 'data-testid': 'confirm-cancel' } as Record<string, unknown>,
      onConfirm: () => remove.mutate(quick.id, { onSuccess: () => notifySuccess(t('quickMessages.deleted')) }),
    });

  const actionsColumn: DataTableColumn<QuickMessageDto> = {
    accessor: 'actions',
    title: <span className="visually-hidden">{t('common.actions')}</span>,
    textAlign: 'right',
    width: 110,
    render: (quick) => (
      <Group gap={4} justify="flex-end" wrap="nowrap">
        <Tooltip label={t('common.edit')}>
          <ActionIcon
            variant="subtle"
            aria-label={t('quickMessages.editItem', { key: `/${quick.key}` })}
            onClick={() => setEditing({ quick })}
            data-testid={`quick-edit-${quick.id}`}
          >
            <IconPencil size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
        <Tooltip label={t('common.delete')}>
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={t('quickMessages.deleteItem', { key: `/${quick.key}` })}
            onClick={() => confirmDelete(quick)}
            data-testid={`quick-delete-${quick.id}`}
          >
            <IconTrash size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </Group>
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
