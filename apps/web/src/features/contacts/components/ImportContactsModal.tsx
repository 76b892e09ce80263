import { useState } from 'react';
import {
  Alert,
  Anchor,
  Button,
  CloseButton,
  Group,
  Modal,
  MultiSelect,
  Paper,
  Stack,
  Switch,
  Text,
} from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { IconFileSpreadsheet, IconInfoCircle, IconUpload, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../../lib/i18n';
import { notifyError } from '../../../lib/notify';
import { useWalletOwners } from '../api/contacts';
import { IMPORT_MAX_BYTES, useImportContacts } from '../api/contact-transfer';
import { downloadExampleCsv, importColumns } from '../hooks/example-csv';
import { notifyFailure } from '../hooks/notify-failure';
import { ImportProgressView } from './ImportProgressView';
import { TagMultiSelect } from '../../../components/TagMultiSelect';

/** A type or an extension matches (a CSV saved on Windows often says application/vnd.ms-excel: its .csv counts). */
const ACCEPT: Record<string, string[]> = {
  'text/csv': ['.csv'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['.xlsx'],
};

interface ImportContactsModalProps {
  opened: boolean;
  onClose: () => void;
  /** The import under way or finished, kept by the page so the modal can be closed and opened again. */
  importId: string | null;
  onStarted: (importId: string) => void;
  onReset: () => void;
  canListUsers: boolean;
}

export function ImportContactsModal({
  opened,
  onClose,
  importId,
  onStarted,
  onReset,
  canListUsers,
}: ImportContactsModalProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('contacts.import.title')} centered size="lg">
      {importId ? (
        <ImportProgressView importId={importId} onAnother={onReset} onClose={onClose} />
      ) : (
        <ImportForm onStarted={onStarted} onCancel={onClose} canListUsers={canListUsers} />
      )}
    </Modal>
  );
}

function ImportForm({
  onStarted,
  onCancel,
  canListUsers,
}: {
  onStarted: (importId: string) => void;
  onCancel: () => void;
  canListUsers: boolean;
}) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const columns = importColumns(locale);
  const [file, setFile] = useState<File | null>(null);
  const [rejected, setRejected] = useState(false);
  const [wallets, setWallets] = useState<string[]>([]);
  const [tags, setTags] = useState<number[]>([]);
  const [validContact, setValidContact] = useState(false);
  const owners = useWalletOwners(canListUsers);
  const upload = useImportContacts();

  const start = () => {
    if (!file) return;
    upload.mutate(
      { file, wallets: wallets.map(Number), tags, validContact },
      { onSuccess: onStarted, onError: (error) => notifyFailure(error, t('contacts.import.error')) },
    );
  };

  return (
    <Stack gap="md">
      <Alert variant="light" color="indigo" icon={<IconInfoCircle aria-hidden />}>
        <Text size="sm">{t('contacts.import.help', { name: columns.name, number: columns.number })}</Text>
        <Anchor component="button" type="button" size="sm" mt={4} onClick={() => downloadExampleCsv(locale)}>
          {t('contacts.import.example')}
        </Anchor>
      </Alert>
      <Dropzone
        onDrop={(files) => {
          setFile(files[0] ?? null);
          setRejected(false);
        }}
        onReject={() => {
          setRejected(true);
          notifyError(t('contacts.import.rejected'));
        }}
        accept={ACCEPT}
        maxSize={IMPORT_MAX_BYTES}
        maxFiles={1}
        multiple={false}
        loading={upload.isPending}
        data-testid="contacts-import-dropzone"
        aria-label={t('contacts.import.drop')}
      >
        <Group justify="center" gap="md" mih={110} style={{ pointerEvents: 'none' }} wrap="nowrap">
          <Dropzone.Accept>
            <IconUpload size={40} aria-hidden color="var(--mantine-color-indigo-6)" />
          </Dropzone.Accept>
          <Dropzone.Reject>
            <IconX size={40} aria-hidden color="var(--mantine-color-red-6)" />
          </Dropzone.Reject>
          <Dropzone.Idle>
            <IconFileSpreadsheet size={40} aria-hidden color="var(--mantine-color-dimmed)" />
          </Dropzone.Idle>
          <div>
            <Text size="md" fw={500}>
              {t('contacts.import.drop')}
            </Text>
            <Text size="sm" c="dimmed">
              {t('contacts.import.dropHint')}
            </Text>
          </div>
        </Group>
      </Dropzone>
      {rejected ? (
        <Text size="sm" c="red" role="alert">
          {t('contacts.import.rejected')}
        </Text>
      ) : null}
      {file ? (
        <Paper withBorder p="xs" radius="md">
          <Group justify="space-between" wrap="nowrap">
            <Group gap="xs" wrap="nowrap" miw={0}>
              <IconFileSpreadsheet size={20} aria-hidden />
              <Text size="sm" truncate data-testid="contacts-import-file">
                {file.name}
              </Text>
            </Group>
            <CloseButton aria-label={t('contacts.import.removeFile')} onClick={() => setFile(null)} />
          </Group>
        </Paper>
      ) : null}
      {canListUsers ? (
        <MultiSelect
          label={t('contacts.wallets')}
          description={t('contacts.import.walletsHint')}
          data={(owners.data ?? []).map((user) => ({ value: String(user.id), label: user.name }))}
          value={wallets}
          onChange={setWallets}
          searchable
          clearable
          nothingFoundMessage={t('contacts.form.walletsNone')}
          data-testid="contacts-import-wallets"
        />
      ) : null}
      <TagMultiSelect
        value={tags}
        onChange={setTags}
        description={t('org.tagPicker.importHint')}
        data-testid="contacts-import-tags"
      />
      <Switch
        label={t('contacts.import.validContact')}
        description={t('contacts.import.validContactHelp')}
        checked={validContact}
        onChange={(event) => setValidContact(event.currentTarget.checked)}
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <Button
          onClick={start}
          disabled={!file}
          loading={upload.isPending}
          leftSection={<IconUpload size={16} aria-hidden />}
          data-testid="contacts-import-submit"
        >
          {t('contacts.import.submit')}
        </Button>
      </Group>
    </Stack>
  );
}
