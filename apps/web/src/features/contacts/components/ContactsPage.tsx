import '@mantine/dates/styles.css';
import '@mantine/dropzone/styles.css';
import { useState } from 'react';
import { Button, Group, Skeleton, Stack, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconCopy, IconPlus, IconSearch, IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ContactDto } from '@conversa/shared';
import { confirmDelete } from '../../../components/confirmDelete';
import { PageTitle } from '../../../components/PageTitle';
import { QueryError } from '../../../components/QueryError';
import { currentLocale } from '../../../lib/i18n';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useStoredSession } from '../../../lib/storage';
import {
  CONTACTS_PAGE_SIZE,
  useContactsList,
  useDeleteContact,
  useToggleContactFlag,
  type ContactFlag,
} from '../api/contacts';
import { formatContactCount } from '../hooks/contact-format';
import { notifyFailure } from '../hooks/notify-failure';
import { contactPermissions } from '../hooks/permissions';
import { useImportOutcomeToast } from '../hooks/use-import-progress';
import { ContactFormModal } from './ContactFormModal';
import { ContactsTable } from './ContactsTable';
import { DuplicatesModal } from './DuplicatesModal';
import { ExportMenu } from './ExportMenu';
import { ImportContactsModal } from './ImportContactsModal';
import { SessionToolsMenu } from './SessionToolsMenu';

type Dialog = { kind: 'form'; contact?: ContactDto } | { kind: 'import' } | { kind: 'duplicates' } | null;

export function ContactsPage() {
  const { t } = useTranslation();
  const session = useStoredSession();
  const can = contactPermissions(session?.profile);
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 400);
  const [page, setPage] = useState(1);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [importId, setImportId] = useState<string | null>(null);
  const list = useContactsList(debouncedSearch, page);
  const remove = useDeleteContact();
  const toggle = useToggleContactFlag();
  useImportOutcomeToast(
    importId,
    () => notifySuccess(t('contacts.import.done')),
    () => notifyError(t('contacts.import.error')),
  );

  const askDelete = (contact: ContactDto) =>
    confirmDelete({
      title: t('contacts.deleteTitle'),
      message: t('contacts.deleteConfirm', { name: contact.name }),
      onConfirm: () =>
        remove.mutate(contact.id, {
          onSuccess: () => notifySuccess(t('contacts.deleted')),
          onError: (error) => notifyFailure(error, t('contacts.deleteError')),
        }),
    });

  const onToggle = (contact: ContactDto, flag: ContactFlag) => {
    const value = !contact[flag];
    toggle.mutate(
      { id: contact.id, flag, value },
      { onSuccess: () => notifySuccess(t(`contacts.toggled.${flag}.${value ? 'on' : 'off'}`)) },
    );
  };

  const data = list.data;
  return (
    <>
      <PageTitle
        title={t('contacts.title')}
        description={t('contacts.subtitle')}
        actions={
          <>
            {can.manage ? (
              <>
                <Button
                  variant="default"
                  leftSection={<IconCopy size={16} aria-hidden />}
                  onClick={() => setDialog({ kind: 'duplicates' })}
                  data-testid="contacts-duplicates"
                >
                  {t('contacts.duplicates.button')}
                </Button>
                <Button
                  variant="default"
                  leftSection={<IconUpload size={16} aria-hidden />}
                  onClick={() => setDialog({ kind: 'import' })}
                  data-testid="contacts-import"
                >
                  {t('contacts.import.button')}
                </Button>
                <ExportMenu />
                {can.sessionTools ? <SessionToolsMenu /> : null}
              </>
            ) : null}
            <Button
              leftSection={<IconPlus size={16} aria-hidden />}
              onClick={() => setDialog({ kind: 'form' })}
              data-testid="contacts-new"
            >
              {t('contacts.new')}
            </Button>
          </>
        }
      />
      <TextInput
        mb="md"
        maw={420}
        type="search"
        aria-label={t('contacts.search')}
        placeholder={t('contacts.search')}
        leftSection={<IconSearch size={16} aria-hidden />}
        value={search}
        onChange={(event) => {
          setSearch(event.currentTarget.value);
          setPage(1);
        }}
        data-testid="contacts-search"
      />
      {list.isPending ? (
        <TableSkeleton label={t('common.loading')} />
      ) : list.isError && !data ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <ContactsTable
          records={data?.contacts ?? []}
          totalRecords={data?.count ?? 0}
          totalText={formatContactCount(data?.count ?? 0, data?.countCapped ?? false, currentLocale())}
          pageSize={CONTACTS_PAGE_SIZE}
          page={page}
          onPageChange={setPage}
          fetching={list.isPlaceholderData && list.isFetching}
          emptyText={debouncedSearch ? t('contacts.noResults') : t('contacts.empty')}
          canDelete={can.manage}
          onEdit={(contact) => setDialog({ kind: 'form', contact })}
          onDelete={askDelete}
          onToggle={onToggle}
        />
      )}
      <ContactFormModal
        opened={dialog?.kind === 'form'}
        onClose={() => setDialog(null)}
        contact={dialog?.kind === 'form' ? dialog.contact : undefined}
        canListUsers={can.listUsers}
      />
      {can.manage ? (
        <>
          <ImportContactsModal
            opened={dialog?.kind === 'import'}
            onClose={() => setDialog(null)}
            importId={importId}
            onStarted={setImportId}
            onReset={() => setImportId(null)}
            canListUsers={can.listUsers}
          />
          <DuplicatesModal opened={dialog?.kind === 'duplicates'} onClose={() => setDialog(null)} />
        </>
      ) : null}
    </>
  );
}

function TableSkeleton({ label }: { label: string }) {
  return (
    <Stack gap={6} aria-busy="true" aria-label={label} data-testid="contacts-loading">
      <Skeleton h={40} radius="sm" />
      {Array.from({ length: 6 }, (_, index) => (
        <Group key={index} gap="sm" wrap="nowrap">
          <Skeleton h={34} w={34} circle />
          <Skeleton h={14} w="24%" />
          <Skeleton h={14} w="18%" />
          <Skeleton h={14} w="22%" />
          <Skeleton h={14} w="12%" />
        </Group>
      ))}
    </Stack>
  );
}
