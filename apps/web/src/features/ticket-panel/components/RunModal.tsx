/**
 * The mass action's run dialog: the progress, each ticket's result (ok or the error's text), and cancel while it
 * runs. It cannot be dismissed while running; cancelling lets the batch already sent finish.
 */
import { Badge, Button, Group, Modal, Progress, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { RunState } from '../hooks/use-ticket-panel';

export function RunModal({
  run,
  names,
  onCancel,
  onDismiss,
}: {
  run: RunState | null;
  /** Each ticket's contact name, by ticket id. */
  names: Map<number, string>;
  onCancel: () => void;
  onDismiss: () => void;
}) {
  const { t } = useTranslation();
  const running = run?.running ?? false;
  return (
    <Modal
      opened={run !== null}
      onClose={() => {
        if (!running) onDismiss();
      }}
      withCloseButton={!running}
      closeOnClickOutside={!running}
      closeOnEscape={!running}
      title={run ? t(`ticketPanel.running.${run.action}`) : ''}
      centered
      size="lg"
    >
      {run ? (
        <Stack data-testid="panel-run">
          <Progress
            value={run.total === 0 ? 0 : (run.done / run.total) * 100}
            aria-label={t('ticketPanel.progress', { done: run.done, total: run.total })}
            animated={running}
          />
          <Text size="sm" aria-live="polite" data-testid="panel-run-progress">
            {t('ticketPanel.progress', { done: run.done, total: run.total })}
            {run.cancelled ? ` · ${t('ticketPanel.cancelled')}` : ''}
          </Text>
          <ScrollArea.Autosize mah={280} tabIndex={0} aria-label={t('ticketPanel.results')}>
            <Table striped withTableBorder data-testid="panel-results">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('ticketPanel.ticket')}</Table.Th>
                  <Table.Th>{t('ticketPanel.result')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {run.results.map((result) => (
                  <Table.Tr key={result.id} data-testid={`panel-result-${result.id}`}>
                    <Table.Td>
                      #{result.id}
                      {names.get(result.id) ? ` · ${names.get(result.id)}` : ''}
                    </Table.Td>
                    <Table.Td>
                      {result.ok ? (
                        <Badge color="green" variant="light">
                          {t('ticketPanel.ok')}
                        </Badge>
                      ) : (
                        <Text size="sm" c="red.8">
                          {result.error}
                        </Text>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
          <Group justify="flex-end">
            {running ? (
              <Button
                variant="default"
                color="red"
                disabled={run.stopping}
                onClick={onCancel}
                data-testid="panel-run-cancel"
              >
                {t('ticketPanel.cancel')}
              </Button>
            ) : (
              <Button onClick={onDismiss} data-testid="panel-run-close">
                {t('common.close')}
              </Button>
            )}
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
