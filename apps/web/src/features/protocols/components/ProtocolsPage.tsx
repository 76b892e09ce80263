import { useState } from 'react';
import { ActionIcon, Group, Text, TextInput, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconExternalLink, IconFileCertificate, IconSearch } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PROTOCOLS_PAGE_SIZE, type TicketProtocolDto } from '@conversa/shared';
import { DayInput } from '../../../components/DayInput';
import { PageTitle } from '../../../components/PageTitle';
import { QueryError } from '../../../components/QueryError';
import { formatDateTime } from '../../../lib/dates';
import { useProtocolsPage } from '../api/protocols';

/** /protocolos (supervisor menu): the protocols sent to customers; search by number or contact, one day; open ticket. */
export function ProtocolsPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 400);
  const [date, setDate] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const list = useProtocolsPage(debounced, date, page);
  const filtered = Boolean(debounced || date);

  return (
    <>
      <PageTitle title={t('protocols.title')} description={t('protocols.subtitle')} />
      <Group mb="md" align="end" gap="sm">
        <TextInput
          w={320}
          type="search"
          aria-label={t('protocols.search')}
          placeholder={t('protocols.search')}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(1);
          }}
          data-testid="protocols-search"
        />
        <DayInput
          w={200}
          aria-label={t('protocols.date')}
          placeholder={t('protocols.date')}
          clearable
          value={date ?? ''}
          onChange={(value) => {
            setDate(value || null);
            setPage(1);
          }}
          data-testid="protocols-date"
        />
      </Group>
      {list.isError && !list.data ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <DataTable<TicketProtocolDto>
          data-testid="protocols-table"
          aria-label={t('protocols.title')}
          withTableBorder
          borderRadius="md"
          highlightOnHover
          minHeight={list.data?.ticketProtocols.length ? undefined : 220}
          fetching={list.isFetching}
          loadingText={t('common.loading')}
          noRecordsText={filtered ? t('protocols.noResults') : t('protocols.empty')}
          noRecordsIcon={<IconFileCertificate size={32} aria-hidden />}
          records={list.data?.ticketProtocols ?? []}
          totalRecords={list.data?.count ?? 0}
          recordsPerPage={PROTOCOLS_PAGE_SIZE}
          page={page}
          onPageChange={setPage}
          paginationText={({ from, to, totalRecords }) => t('common.pagination', { from, to, total: totalRecords })}
          customRowAttributes={(row) => ({ 'data-testid': `protocol-row-${row.id}` })}
          columns={[
            {
              accessor: 'protocol',
              title: t('protocols.protocol'),
              render: (row) => (
                <Text size="sm" ff="monospace">
                  {row.protocol}
                </Text>
              ),
            },
            {
              accessor: 'contact',
              title: t('protocols.contact'),
              render: (row) => (
                <div>
                  <Text size="sm">{row.ticket.contact.name}</Text>
                  {row.ticket.contact.number ? (
                    <Text size="xs" c="dimmed" dir="ltr">
                      {row.ticket.contact.number}
                    </Text>
                  ) : null}
                </div>
              ),
            },
            {
              accessor: 'user',
              title: t('protocols.agent'),
              render: (row) => row.user?.name ?? t('protocols.noAgent'),
            },
            {
              accessor: 'createdAt',
              title: t('protocols.createdAt'),
              width: 170,
              render: (row) => formatDateTime(row.createdAt),
            },
            {
              accessor: 'actions',
              title: <span className="visually-hidden">{t('common.actions')}</span>,
              textAlign: 'right',
              width: 70,
              render: (row) => (
                <Tooltip label={t('protocols.openTicket')}>
                  <ActionIcon
                    component={Link}
                    to={`/atendimento/${row.ticketId}`}
                    variant="subtle"
                    aria-label={t('protocols.openTicketNumber', { id: row.ticketId })}
                    data-testid={`protocol-open-${row.id}`}
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
