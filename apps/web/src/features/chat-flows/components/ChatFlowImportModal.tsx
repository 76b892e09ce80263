import { useState } from 'react';
import { Alert, Button, FileInput, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { IconJson } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ChatFlowDto } from '@conversa/shared';
import { ApiError, describeError } from '../../../lib/api';
import { notifySuccess } from '../../../lib/notify';
import { useImportChatFlow } from '../api/chat-flows';
import { checkImportedFlow } from './chat-flow-json';

/** A file's text (FileReader: Blob.text() is missing in some engines). */
const readText = (file: File) =>
  new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => resolve('');
    reader.readAsText(file);
  });

interface ChatFlowImportModalProps {
  /** The flow whose graph the import replaces; null keeps the dialog closed. */
  flow: ChatFlowDto | null;
  onClose: () => void;
}

/** Replaces a flow's graph with a JSON file or pasted JSON (an exported record or a bare graph). */
export function ChatFlowImportModal({ flow, onClose }: ChatFlowImportModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={flow !== null}
      onClose={onClose}
      title={flow ? t('chatFlows.import.title', { name: flow.name }) : ''}
      centered
      size="lg"
    >
      {flow ? <ImportForm key={flow.id} flow={flow} onDone={onClose} /> : null}
    </Modal>
  );
}

function ImportForm({ flow, onDone }: { flow: ChatFlowDto; onDone: () => void }) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [text, setText] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const importFlow = useImportChatFlow();

  // A picked file fills the text area: what is sent is always what the user sees.
  const pick = (picked: File | null) => {
    setFile(picked);
    setInvalid(null);
    if (picked) void readText(picked).then(setText);
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const check = checkImportedFlow(text);
    if (!check.ok) {
      setInvalid(check.reason === 'required' ? t('chatFlows.import.required') : t('chatFlows.import.invalid'));
      return;
    }
    setInvalid(null);
    importFlow.mutate(
      { id: flow.id, imported: check.imported },
      {
        onSuccess: () => {
          notifySuccess(t('chatFlows.import.done'));
          onDone();
        },
        onError: (error) => setFailure(error instanceof ApiError && error.notified ? null : describeError(error)),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('chatFlows.import.intro')}
        </Text>
        <FileInput
          label={t('chatFlows.import.file')}
          placeholder={t('chatFlows.import.filePlaceholder')}
          accept=".json,application/json"
          value={file}
          onChange={pick}
          clearable
          leftSection={<IconJson size={16} aria-hidden />}
          data-testid="chat-flow-import-file"
        />
        <Textarea
          label={t('chatFlows.import.json')}
          autosize
          minRows={6}
          maxRows={14}
          styles={{ input: { fontFamily: 'monospace' } }}
          value={text}
          onChange={(event) => {
            setText(event.currentTarget.value);
            setInvalid(null);
          }}
          error={invalid}
          data-testid="chat-flow-import-json"
        />
        {failure ? (
          <Alert color="red" variant="light" role="alert" data-testid="chat-flow-import-error">
            {failure}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={importFlow.isPending} data-testid="chat-flow-import-submit">
            {t('chatFlows.import.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
