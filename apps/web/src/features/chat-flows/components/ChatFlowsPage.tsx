import { useState } from 'react';
import { ActionIcon, Button, Group, Switch, Text, Tooltip } from '@mantine/core';
import { IconCopy, IconDownload, IconHierarchy, IconPlus, IconRobot, IconUpload } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { ChatFlowDto } from '@conversa/shared';
import { confirmDelete } from '../../../components/confirmDelete';
import { PageTitle } from '../../../components/PageTitle';
import { QueryError } from '../../../components/QueryError';
import { RowActions } from '../../../components/RowActions';
import { ApiError, describeError } from '../../../lib/api';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useChatFlowList, useDeleteChatFlow, useDuplicateChatFlow, useSaveChatFlow } from '../api/chat-flows';
import { ChatFlowFormModal } from './ChatFlowFormModal';
import { ChatFlowImportModal } from './ChatFlowImportModal';
import { downloadFlow } from './chat-flow-json';

export const builderPath = (id: number) => `/chat-flow/builder?id=${id}`;

/**
 * /chat-flow: the tenant's chat flows (supervisors and up). A row's switch saves at once; the graph is edited in the
 * builder; export/import move a flow's JSON; a flow a ticket is running cannot be deleted (the server's 409 text).
 */
export function ChatFlowsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [editing, setEditing] = useState<{ flow?: ChatFlowDto } | null>(null);
  const [importing, setImporting] = useState<ChatFlowDto | null>(null);
  const list = useChatFlowList();
  const remove = useDeleteChatFlow();
  const duplicate = useDuplicateChatFlow();

  const askDelete = (flow: ChatFlowDto) =>
    confirmDelete({
      title: t('chatFlows.deleteTitle'),
      message: t('chatFlows.deleteConfirm', { name: flow.name }),
      onConfirm: () => remove.mutate(flow.id, { onSuccess: () => notifySuccess(t('chatFlows.deleted')) }),
    });

  return (
    <>
      <PageTitle
        title={t('chatFlows.title')}
        description={t('chatFlows.subtitle')}
        actions={
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => setEditing({})}
            data-testid="chat-flows-new"
          >
            {t('chatFlows.new')}
          </Button>
        }
      />
      {list.isError && !list.data ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <DataTable<ChatFlowDto>
          data-testid="chat-flows-table"
          aria-label={t('chatFlows.title')}
          withTableBorder
          borderRadius="md"
          highlightOnHover
          minHeight={list.data?.length ? undefined : 220}
          fetching={list.isPending}
          noRecordsText={list.isPending ? t('common.loading') : t('chatFlows.empty')}
          noRecordsIcon={<IconRobot size={32} aria-hidden />}
          records={list.data ?? []}
          customRowAttributes={(flow) => ({ 'data-testid': `chat-flow-row-${flow.id}` })}
          columns={[
            {
              accessor: 'name',
              title: t('chatFlows.name'),
              render: (flow) => (
                <Text size="sm" fw={500}>
                  {flow.name}
                </Text>
              ),
            },
            {
              accessor: 'isActive',
              title: t('chatFlows.active'),
              width: 110,
              render: (flow) => <ActiveSwitch flow={flow} />,
            },
            {
              accessor: 'celularTeste',
              title: t('chatFlows.testNumber'),
              width: 190,
              render: (flow) =>
                flow.celularTeste ? (
                  <Text size="sm" ff="monospace">{`+${flow.celularTeste}`}</Text>
                ) : (
                  <Text size="sm" c="dimmed">
                    {t('chatFlows.noTestNumber')}
                  </Text>
                ),
            },
            {
              accessor: 'actions',
              title: <span className="visually-hidden">{t('common.actions')}</span>,
              textAlign: 'right',
              width: 250,
              render: (flow) => (
                <Group gap={4} justify="flex-end" wrap="nowrap">
                  <Tooltip label={t('chatFlows.openBuilder')}>
                    <ActionIcon
                      component={Link}
                      to={builderPath(flow.id)}
                      variant="subtle"
                      aria-label={t('chatFlows.openBuilderItem', { name: flow.name })}
                      data-testid={`chat-flow-builder-${flow.id}`}
                    >
                      <IconHierarchy size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                  <RowActions
                    id={flow.id}
                    testIdPrefix="chat-flow"
                    editLabel={t('chatFlows.editItem', { name: flow.name })}
                    onEdit={() => setEditing({ flow })}
                    deleteLabel={t('chatFlows.deleteItem', { name: flow.name })}
                    onDelete={() => askDelete(flow)}
                    extra={[
                      {
                        label: t('chatFlows.duplicate'),
                        ariaLabel: t('chatFlows.duplicateItem', { name: flow.name }),
                        icon: <IconCopy size={18} aria-hidden />,
                        testId: 'duplicate',
                        disabled: duplicate.isPending,
                        onClick: () =>
                          duplicate.mutate(flow, {
                            onSuccess: (copy) => notifySuccess(t('chatFlows.duplicated', { name: copy.name })),
                          }),
                      },
                      {
                        label: t('chatFlows.export'),
                        ariaLabel: t('chatFlows.exportItem', { name: flow.name }),
                        icon: <IconDownload size={18} aria-hidden />,
                        testId: 'export',
                        onClick: () => downloadFlow(flow),
                      },
                      {
                        label: t('chatFlows.import.action'),
                        ariaLabel: t('chatFlows.import.actionItem', { name: flow.name }),
                        icon: <IconUpload size={18} aria-hidden />,
                        testId: 'import',
                        onClick: () => setImporting(flow),
                      },
                    ]}
                  />
                </Group>
              ),
            },
          ]}
        />
      )}
      <ChatFlowFormModal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        flow={editing?.flow}
        onCreated={(created) => void navigate(builderPath(created.id))}
      />
      <ChatFlowImportModal flow={importing} onClose={() => setImporting(null)} />
    </>
  );
}

/** The row's active switch: saves the whole record at once and shows the new state while it is saved. */
function ActiveSwitch({ flow }: { flow: ChatFlowDto }) {
  const { t } = useTranslation();
  const save = useSaveChatFlow();
  const checked = save.isPending ? Boolean(save.variables.input.isActive) : flow.isActive;
  return (
    <Switch
      checked={checked}
      disabled={save.isPending}
      aria-label={t('chatFlows.activeItem', { name: flow.name })}
      data-testid={`chat-flow-active-${flow.id}`}
      onChange={(event) =>
        save.mutate(
          {
            id: flow.id,
            input: {
              name: flow.name,
              isActive: event.currentTarget.checked,
              celularTeste: flow.celularTeste,
              flow: flow.flow,
            },
          },
          {
            onSuccess: (saved) => notifySuccess(saved.isActive ? t('chatFlows.activated') : t('chatFlows.deactivated')),
            onError: (error) => {
              if (!(error instanceof ApiError && error.notified)) notifyError(describeError(error));
            },
          },
        )
      }
    />
  );
}
