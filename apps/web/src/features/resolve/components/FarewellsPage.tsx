import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconMessageCircleHeart, IconPlus, IconTrash } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import { FAREWELL_MESSAGE_MAX, type FarewellDto } from '@conversa/shared';
import { confirmDelete } from '../../../components/confirmDelete';
import { PageTitle } from '../../../components/PageTitle';
import { QueryError } from '../../../components/QueryError';
import { RowActions } from '../../../components/RowActions';
import { describeError } from '../../../lib/api';
import { formatDateTime } from '../../../lib/dates';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useDeleteFarewell, useFarewells, useSaveFarewell } from '../api/resolve-admin';

/** /fechamento: the closing messages an agent picks when resolving (supervisors and admins). */
export function FarewellsPage() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<{ farewell?: FarewellDto } | null>(null);
  const list = useFarewells();
  const remove = useDeleteFarewell();

  const askDelete = (farewell: FarewellDto) =>
    confirmDelete({
      title: t('resolve.farewells.deleteTitle'),
      message: t('resolve.farewells.deleteConfirm'),
      onConfirm: () => remove.mutate(farewell.id, { onSuccess: () => notifySuccess(t('resolve.farewells.deleted')) }),
    });

  const confirmDeleteAll = () =>
    confirmDelete({
      title: t('resolve.farewells.deleteAllTitle'),
      message: t('resolve.farewells.deleteAllConfirm'),
      confirmLabel: t('resolve.farewells.deleteAll'),
      onConfirm: () => remove.mutate('all', { onSuccess: () => notifySuccess(t('resolve.farewells.deletedAll')) }),
    });

  return (
    <>
      <PageTitle
        title={t('resolve.farewells.title')}
        description={t('resolve.farewells.subtitle')}
        actions={
          <Group gap="xs">
            <Button
              variant="default"
              color="red"
              leftSection={<IconTrash size={16} aria-hidden />}
              onClick={confirmDeleteAll}
              disabled={!list.data?.length}
              data-testid="farewells-delete-all"
            >
              {t('resolve.farewells.deleteAll')}
            </Button>
            <Button
              leftSection={<IconPlus size={16} aria-hidden />}
              onClick={() => setEditing({})}
              data-testid="farewells-new"
            >
              {t('resolve.farewells.new')}
            </Button>
          </Group>
        }
      />
      {list.isError && !list.data ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <DataTable<FarewellDto>
          data-testid="farewells-table"
          aria-label={t('resolve.farewells.title')}
          withTableBorder
          borderRadius="md"
          highlightOnHover
          minHeight={list.data?.length ? undefined : 220}
          fetching={list.isPending}
          noRecordsText={t('resolve.farewells.empty')}
          noRecordsIcon={<IconMessageCircleHeart size={32} aria-hidden />}
          records={list.data ?? []}
          customRowAttributes={(f) => ({ 'data-testid': `farewell-row-${f.id}` })}
          columns={[
            {
              accessor: 'message',
              title: t('resolve.farewells.message'),
              render: (f) => (
                <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                  {f.message}
                </Text>
              ),
            },
            {
              accessor: 'createdAt',
              title: t('resolve.farewells.createdAt'),
              width: 180,
              render: (f) => formatDateTime(f.createdAt),
            },
            {
              accessor: 'actions',
              title: <span className="visually-hidden">{t('common.actions')}</span>,
              textAlign: 'right',
              width: 110,
              render: (f) => (
                <RowActions
                  id={f.id}
                  testIdPrefix="farewell"
                  editLabel={t('resolve.farewells.editItem')}
                  onEdit={() => setEditing({ farewell: f })}
                  deleteLabel={t('resolve.farewells.deleteItem')}
                  onDelete={() => askDelete(f)}
                />
              ),
            },
          ]}
        />
      )}
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing?.farewell ? t('resolve.farewells.editTitle') : t('resolve.farewells.newTitle')}
        centered
      >
        {editing ? (
          <FarewellForm
            key={editing.farewell?.id ?? 'new'}
            farewell={editing.farewell}
            onDone={() => setEditing(null)}
          />
        ) : null}
      </Modal>
    </>
  );
}

function FarewellForm({ farewell, onDone }: { farewell?: FarewellDto; onDone: () => void }) {
  const { t } = useTranslation();
  const save = useSaveFarewell();
  const form = useForm({
    mode: 'controlled',
    initialValues: { message: farewell?.message ?? '' },
    validate: {
      message: (v) => (v.trim() ? null : t('validation.required', { attribute: t('resolve.farewells.message') })),
    },
  });
  const submit = form.onSubmit((values) =>
    save.mutate(
      { id: farewell?.id, message: values.message.trim() },
      {
        onSuccess: () => {
          notifySuccess(farewell ? t('resolve.farewells.saved') : t('resolve.farewells.created'));
          onDone();
        },
        onError: (error) => {
          form.setFieldError('message', describeError(error));
          notifyError(describeError(error));
        },
      },
    ),
  );
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Textarea
          label={t('resolve.farewells.message')}
          description={t('resolve.farewells.messageHint', { max: FAREWELL_MESSAGE_MAX })}
          required
          data-autofocus
          autosize
          minRows={4}
          maxLength={FAREWELL_MESSAGE_MAX}
          data-testid="farewell-form-message"
          {...form.getInputProps('message')}
        />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="farewell-form-submit">
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
