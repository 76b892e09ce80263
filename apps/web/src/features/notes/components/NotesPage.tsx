import { useState } from 'react';
import { ActionIcon, Anchor, Text, TextInput, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconExternalLink, IconNotes, IconSearch } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { NOTES_PAGE_SIZE, type TicketNoteDto } from '@conversa/shared';
import { PageTitle } from '../../../components/PageTitle';
import { QueryError } from '../../../components/QueryError';
import { formatDateTime } from '../../../lib/dates';
import { useNotesPage, useNotesPagesLive } from '../api/notes';

/** /notas (supervisor menu): every internal note of the tickets one may see, newest first; search; open the ticket. */
export function NotesPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 400);
  const [page, setPage] = useState(1);
  const list = useNotesPage(debounced, page);
  useNotesPagesLive();

  return (
    <>
      <PageTitle title={t('notes.title')} description={t('notes.subtitle')} />
      <TextInput
        mb="md"
        maw={420}
        type="search"
        aria-label={t('notes.search')}
        placeholder={t('notes.search')}
        leftSection={<IconSearch size={16} aria-hidden />}
        value={search}
        onChange={(event) => {
          setSearch(event.currentTarget.value);
          setPage(1);
        }}
        data-testid="notes-search"
      />
      {list.isError && !list.data ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <DataTable<TicketNoteDto>
          data-testid="notes-table"
          aria-label={t('notes.title')}
          withTableBorder
          borderRadius="md"
          highlightOnHover
          minHeight={list.data?.ticketNotes.length ? undefined : 220}
          fetching={list.isFetching}
          loadingText={t('common.loading')}
          noRecordsText={debounced ? t('notes.noResults') : t('notes.empty')}
          noRecordsIcon={<IconNotes size={32} aria-hidden />}
          records={list.data?.ticketNotes ?? []}
          totalRecords={list.data?.count ?? 0}
          recordsPerPage={NOTES_PAGE_SIZE}
          page={page}
          onPageChange={setPage}
          paginationText={({ from, to, totalRecords }) => t('common.pagination', { from, to, total: totalRecords })}
          customRowAttributes={(note) => ({ 'data-testid': `note-row-${note.id}` })}
          columns={[
            {
              accessor: 'ticketId',
              title: t('notes.ticket'),
              width: 100,
              render: (note) => (
                <Anchor component={Link} to={`/atendimento/${note.ticketId}`} size="sm">
                  #{note.ticketId}
                </Anchor>
              ),
            },
            { accessor: 'contact', title: t('notes.contact'), render: (note) => note.ticket.contact.name },
            {
              accessor: 'notes',
              title: t('notes.text'),
              render: (note) => (
                <Text size="sm" lineClamp={3} style={{ whiteSpace: 'pre-wrap' }}>
                  {note.notes}
                </Text>
              ),
            },
            {
              accessor: 'user',
              title: t('notes.author'),
              render: (note) => note.user?.name ?? t('notes.deletedUser'),
            },
            {
              accessor: 'createdAt',
              title: t('notes.date'),
              width: 170,
              render: (note) => formatDateTime(note.createdAt),
            },
            {
              accessor: 'actions',
              title: <span className="visually-hidden">{t('common.actions')}</span>,
              textAlign: 'right',
              width: 70,
              render: (note) => (
                <Tooltip label={t('notes.openTicket')}>
                  <ActionIcon
                    component={Link}
                    to={`/atendimento/${note.ticketId}`}
                    variant="subtle"
                    aria-label={t('notes.openTicketNumber', { id: note.ticketId })}
                    data-testid={`note-open-${note.id}`}
                  >
                    <IconExternalLink size={18} aria-hidden />
                  </ActionIcon>
                </Tooltip>
              ),
            },
          ]}
        />
      )}
    </>
  );
}
