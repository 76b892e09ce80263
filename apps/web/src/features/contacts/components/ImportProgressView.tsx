import { Alert, Button, Group, Loader, Progress, ScrollArea, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ContactImportProgress, ContactImportRowError } from '@conversa/shared';
import { errorText } from '../../../lib/errors';
import { importPercent, useImportProgress } from '../hooks/use-import-progress';

/** The running import, fed by `{T}:contactImport` events, then its summary with the rows that failed. */
export function ImportProgressView({
  importId,
  onAnother,
  onClose,
}: {
  importId: string;
  onAnother: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const progress = useImportProgress(importId);
  const state = progress?.action ?? 'waiting';
  const finished = state === 'done' || state === 'failed';

  return (
    <Stack gap="md">
      {state === 'failed' ? (
        <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
          {t('contacts.import.error')}
        </Alert>
      ) : null}
      {state === 'done' ? (
        <Alert color="teal" variant="light" icon={<IconCircleCheck aria-hidden />}>
          {t('contacts.import.done')}
        </Alert>
      ) : null}
      <Stack gap={6}>
        <Group justify="space-between" gap="xs">
          <Text size="sm" fw={500}>
            {progress
              ? t('contacts.import.processed', { processed: progress.processed, total: progress.total })
              : t('contacts.import.waiting')}
          </Text>
          {finished ? null : <Loader size="xs" aria-hidden />}
        </Group>
        <Progress
          value={progress ? importPercent(progress) : 100}
          striped={!finished}
          animated={!finished}
          color={state === 'failed' ? 'red' : state === 'waiting' ? 'gray.4' : 'indigo'}
          size="lg"
          radius="xl"
          aria-label={t('contacts.import.progressLabel')}
          data-testid="contacts-import-progress"
          data-state={state}
        />
      </Stack>
      {progress ? <Counters progress={progress} /> : null}
      {state === 'done' && progress ? <BadRows progress={progress} /> : null}
      {finished ? null : (
        <Text size="xs" c="dimmed">
          {t('contacts.import.background')}
        </Text>
      )}
      <Group justify="flex-end">
        {finished ? (
          <Button variant="default" onClick={onAnother} data-testid="contacts-import-another">
            {t('contacts.import.another')}
          </Button>
        ) : null}
        <Button onClick={onClose} data-testid="contacts-import-close">
          {t('contacts.close')}
        </Button>
      </Group>
    </Stack>
  );
}

function Counters({ progress }: { progress: ContactImportProgress }) {
  const { t } = useTranslation();
  const items = [
    { key: 'created', label: t('contacts.import.created'), value: progress.created, color: 'teal' },
    { key: 'updated', label: t('contacts.import.updated'), value: progress.updated, color: 'indigo' },
    { key: 'failed', label: t('contacts.import.failed'), value: progress.failed, color: 'red' },
  ];
  return (
    <SimpleGrid cols={3} spacing="xs">
      {items.map((item) => (
        <Stack key={item.key} gap={0} align="center" data-testid={`contacts-import-${item.key}`}>
          <Text fw={700} size="xl" c={item.value ? item.color : 'dimmed'}>
            {item.value}
          </Text>
          <Text size="xs" c="dimmed">
            {item.label}
          </Text>
        </Stack>
      ))}
    </SimpleGrid>
  );
}

function BadRows({ progress }: { progress: ContactImportProgress }) {
  const { t } = useTranslation();
  const rows = progress.errors ?? [];
  if (!rows.length) {
    return progress.failed ? null : (
      <Text size="sm" c="dimmed">
        {t('contacts.import.noBadRows')}
      </Text>
    );
  }
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        {t('contacts.import.badRows')}
      </Text>
      {progress.failed > rows.length ? (
        <Text size="xs" c="dimmed">
          {t('contacts.import.badRowsShown', { shown: rows.length, total: progress.failed })}
        </Text>
      ) : null}
      <ScrollArea.Autosize mah={240} type="auto">
        <Table striped withTableBorder fz="sm" data-testid="contacts-import-errors">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={70}>{t('contacts.import.row')}</Table.Th>
              <Table.Th>{t('contacts.import.reason')}</Table.Th>
              <Table.Th>{t('contacts.import.value')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={`${row.row}-${row.reason}`}>
                <Table.Td>{row.row}</Table.Td>
                <Table.Td>{reasonText(row, t)}</Table.Td>
                <Table.Td style={{ wordBreak: 'break-all' }}>{row.value ?? '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
    </Stack>
  );
}

function reasonText(row: ContactImportRowError, t: (key: string) => string): string {
  const key = `contacts.import.reasons.${row.reason}`;
  const text = t(key);
  return text === key ? errorText(row.reason) : text;
}
