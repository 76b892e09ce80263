import { Center, Loader, Modal, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TicketLogDto } from '@conversa/shared';
import { QueryError } from '../../../../components/QueryError';
import { dateTimeOf } from '../../hooks/chat-format';
import { useTicketLogs } from '../../hooks/chat-ticket';

/**
 * The label of a log: its type (client-contract §4.3's names), told apart by the details where the server says more
 * (a reopen is logged `open`, a close without farewell `closed`, a channel move `transfered`).
 */
export function logLabelKey(log: Pick<TicketLogDto, 'type' | 'details'>): string {
  if (log.type === 'open' && log.details.reopened === true) return 'reopen';
  if (log.type === 'closed' && log.details.force === true) return 'forceClosed';
  if (log.type === 'transfered' && log.details.reason === 'channelMove') return 'channel';
  return log.type;
}

/** GET /tickets/{id}/logs: what happened to the ticket, who did it and when (DD/MM/YYYY HH:mm). */
export function LogsModal({ ticketId, opened, onClose }: { ticketId: number; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const logs = useTicketLogs(ticketId, opened);
  return (
    <Modal opened={opened} onClose={onClose} title={t('chat.logs.title')} size="lg" centered>
      {logs.isLoading ? (
        <Center p="md" role="status" aria-label={t('common.loading')}>
          <Loader />
        </Center>
      ) : logs.error ? (
        <QueryError error={logs.error} onRetry={() => void logs.refetch()} />
      ) : !logs.data?.length ? (
        <Text c="dimmed" size="sm">
          {t('chat.logs.empty')}
        </Text>
      ) : (
        <Table striped data-testid="chat-logs-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('chat.logs.event')}</Table.Th>
              <Table.Th>{t('chat.logs.who')}</Table.Th>
              <Table.Th>{t('chat.logs.when')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {logs.data.map((log) => (
              <Table.Tr key={log.id}>
                <Table.Td>{t(`chat.logs.types.${logLabelKey(log)}`)}</Table.Td>
                <Table.Td>{log.user?.name ?? t('chat.logs.system')}</Table.Td>
                <Table.Td>{dateTimeOf(log.createdAt)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Modal>
  );
}
