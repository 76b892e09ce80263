import { useState } from 'react';
import { Button, Group, Modal, Paper, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconListDetails, IconPlus } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import { REASON_NAME_MAX, type ReasonDto } from '@conversa/shared';
import { confirmDelete } from '../../../components/confirmDelete';
import { QueryError } from '../../../components/QueryError';
import { RowActions } from '../../../components/RowActions';
import { ApiError, describeError } from '../../../lib/api';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useDeleteReason, useReasonRequiredSetting, useReasons, useSaveReason } from '../api/resolve-admin';

/**
 * /configuracoes/motivos (admins): the reasons a ticket is resolved with, and whether resolving needs one. Deleting a
 * reason clears it from the tickets that had it.
 */
export function ReasonsPage() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<{ reason?: ReasonDto } | null>(null);
  const list = useReasons();
  const remove = useDeleteReason();
  const required = useReasonRequiredSetting();

  const askDelete = (reason: ReasonDto) =>
    confirmDelete({
      title: t('resolve.reasons.deleteTitle'),
      message: t('resolve.reasons.deleteConfirm', { name: reason.name }),
      onConfirm: () => remove.mutate(reason.id, { onSuccess: () => notifySuccess(t('resolve.reasons.deleted')) }),
    });

  return (
    <Stack gap="md">
      <Paper withBorder p="md" radius="md">
        <Switch
          label={t('resolve.reasons.required')}
          description={t('resolve.reasons.requiredHint')}
          checked={required.enabled}
          disabled={required.loading || required.save.isPending}
          onChange={(event) =>
            required.save.mutate(event.currentTarget.checked ? 'enabled' : 'disabled', {
              onSuccess: () => notifySuccess(t('resolve.reasons.requiredSaved')),
            })
          }
          data-testid="reasons-required"
        />
      </Paper>
      <Group justify="space-between">
        <Text fw={600}>{t('resolve.reasons.title')}</Text>
        <Button
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => setEditing({})}
          data-testid="reasons-new"
        >
          {t('resolve.reasons.new')}
        </Button>
      </Group>
      {list.isError && !list.data ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <DataTable<ReasonDto>
          data-testid="reasons-table"
          aria-label={t('resolve.reasons.title')}
          withTableBorder
          borderRadius="md"
          highlightOnHover
          minHeight={list.data?.length ? undefined : 220}
          fetching={list.isPending}
          noRecordsText={t('resolve.reasons.empty')}
          noRecordsIcon={<IconListDetails size={32} aria-hidden />}
          records={list.data ?? []}
          customRowAttributes={(r) => ({ 'data-testid': `reason-row-${r.id}` })}
          columns={[
            { accessor: 'name', title: t('resolve.reasons.name') },
            {
              accessor: 'actions',
              title: <span className="visually-hidden">{t('common.actions')}</span>,
              textAlign: 'right',
              width: 110,
              render: (r) => (
                <RowActions
                  id={r.id}
                  testIdPrefix="reason"
                  editLabel={t('resolve.reasons.editItem', { name: r.name })}
                  onEdit={() => setEditing({ reason: r })}
                  deleteLabel={t('resolve.reasons.deleteItem', { name: r.name })}
                  onDelete={() => askDelete(r)}
                />
              ),
            },
          ]}
        />
      )}
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing?.reason ? t('resolve.reasons.editTitle') : t('resolve.reasons.newTitle')}
        centered
      >
        {editing ? (
          <ReasonForm key={editing.reason?.id ?? 'new'} reason={editing.reason} onDone={() => setEditing(null)} />
        ) : null}
      </Modal>
    </Stack>
  );
}

function ReasonForm({ reason, onDone }: { reason?: ReasonDto; onDone: () => void }) {
  const { t } = useTranslation();
  const save = useSaveReason();
  const form = useForm({
    mode: 'controlled',
    initialValues: { name: reason?.name ?? '' },
    validate: {
      name: (v) => (v.trim() ? null : t('validation.required', { attribute: t('resolve.reasons.name') })),
    },
  });
  const submit = form.onSubmit((values) =>
    save.mutate(
      { id: reason?.id, name: values.name.trim() },
      {
        onSuccess: () => {
          notifySuccess(reason ? t('resolve.reasons.saved') : t('resolve.reasons.created'));
          onDone();
        },
        onError: (error) => {
          if (error instanceof ApiError && (error.code === 'ERR_REASON_EXISTS' || error.field === 'name')) {
            form.setFieldError('name', describeError(error));
          }
          notifyError(describeError(error));
        },
      },
    ),
  );
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label={t('resolve.reasons.name')}
          required
          data-autofocus
          autoComplete="off"
          maxLength={REASON_NAME_MAX}
          data-testid="reason-form-name"
          {...form.getInputProps('name')}
        />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="reason-form-submit">
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
