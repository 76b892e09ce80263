import { useState } from 'react';
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { useForm } from '@mantine/form';
import { IconMicrophone, IconPlayerStopFilled, IconTrash, IconUpload, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  MEDIA_ALLOWED_MIME_PREFIXES,
  MEDIA_MAX_BYTES,
  QUICK_MESSAGE_KEY_MAX,
  QUICK_MESSAGE_TEXT_MAX,
  type QuickMessageDto,
} from '@conversa/shared';
import { ApiError, describeError } from '../../../lib/api';
import { formatElapsed, useAudioRecorder } from '../../../lib/audio-recorder';
import { notifyError, notifySuccess, notifyWarning } from '../../../lib/notify';
import { QUICK_MESSAGE_VARIABLES } from '../../../lib/quick-message-variables';
import { useSaveQuickMessage } from '../api/quick-messages';
import { fileKind, QuickMessageFile } from './QuickMessageFile';

/** The types the server stores (MEDIA_ALLOWED_MIME_PREFIXES), as the dropzone's accept list. */
const ACCEPT = MEDIA_ALLOWED_MIME_PREFIXES.map((prefix) => `${prefix}*`);

interface QuickMessageFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** The quick message being edited; undefined creates one. */
  quick?: QuickMessageDto;
}

export function QuickMessageFormModal({ opened, onClose, quick }: QuickMessageFormModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={quick ? t('quickMessages.editTitle') : t('quickMessages.newTitle')}
      size="lg"
      centered
    >
      {opened ? <QuickMessageForm key={quick?.id ?? 'new'} quick={quick} onDone={onClose} /> : null}
    </Modal>
  );
}

/** The key has no spaces: the chat matches what follows `/` up to the first space. */
export function validateKey(value: string): 'required' | 'spaces' | null {
  const key = value.trim().replace(/^\/+/, '');
  if (!key) return 'required';
  return /\s/.test(key) ? 'spaces' : null;
}

function QuickMessageForm({ quick, onDone }: { quick?: QuickMessageDto; onDone: () => void }) {
  const { t } = useTranslation();
  const save = useSaveQuickMessage();
  const recorder = useAudioRecorder();
  const [file, setFile] = useState<{ file: File; voice: boolean } | null>(null);
  const [removed, setRemoved] = useState(false);
  const [rejected, setRejected] = useState(false);
  const hasFile = file !== null || (!!quick?.media && !removed);
  const form = useForm({
    mode: 'controlled',
    initialValues: { key: quick?.key ?? '', message: quick?.message ?? '', isActive: quick?.isActive ?? true },
    validate: {
      key: (v) => {
        const problem = validateKey(v);
        if (problem === 'required') return t('validation.required', { attribute: t('quickMessages.key') });
        return problem === 'spaces' ? t('quickMessages.keySpaces') : null;
      },
    },
  });

  const insertVariable = (name: string) => form.setFieldValue('message', `${form.values.message}{{${name}}}`);

  const startRecording = async () => {
    const failure = await recorder.start();
    if (failure) notifyWarning(t(`quickMessages.record.${failure}`));
  };
  const stopRecording = async () => {
    const recorded = await recorder.stop();
    if (recorded) {
      setFile({ file: recorded, voice: true });
      setRejected(false);
    }
  };

  const submit = form.onSubmit((values) => {
    // The text is optional with a file: checked here, where the file state is current.
    if (!values.message.trim() && !hasFile) {
      form.setFieldError('message', t('validation.required', { attribute: t('quickMessages.message') }));
      return;
    }
    save.mutate(
      {
        id: quick?.id,
        draft: {
          key: values.key.trim().replace(/^\/+/, ''),
          message: values.message,
          file: file?.file ?? null,
          voice: file?.voice ?? false,
          removeMedia: removed,
          isActive: values.isActive,
        },
      },
      {
        onSuccess: () => {
          notifySuccess(quick ? t('quickMessages.saved') : t('quickMessages.created'));
          onDone();
        },
        onError: (error) => {
          if (error instanceof ApiError) {
            if (error.code === 'ERR_FAST_REPLY_EXISTS') form.setFieldError('key', describeError(error));
            else if (error.field === 'key' || error.field === 'message')
              form.setFieldError(error.field, describeError(error));
          }
          notifyError(describeError(error));
        },
      },
    );
  });

  const current = quick?.media && !removed && !file ? quick : null;

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label={t('quickMessages.key')}
          description={t('quickMessages.keyHint')}
          required
          data-autofocus
          autoComplete="off"
          maxLength={QUICK_MESSAGE_KEY_MAX}
          leftSection={<Text aria-hidden>/</Text>}
          data-testid="quick-form-key"
          {...form.getInputProps('key')}
        />
        <Textarea
          label={t('quickMessages.message')}
          description={t('quickMessages.messageHint')}
          required={!hasFile}
          autosize
          minRows={3}
          maxRows={10}
          maxLength={QUICK_MESSAGE_TEXT_MAX}
          data-testid="quick-form-message"
          {...form.getInputProps('message')}
        />
        <Group gap={6} role="group" aria-label={t('quickMessages.variables')}>
          <Text size="xs" c="dimmed">
            {t('quickMessages.variables')}:
          </Text>
          {QUICK_MESSAGE_VARIABLES.map((name) => (
            <Tooltip key={name} label={t(`quickMessages.variable.${name}`)}>
              <Badge
                component="button"
                type="button"
                variant="light"
                tt="none"
                style={{ cursor: 'pointer' }}
                onClick={() => insertVariable(name)}
                aria-label={t('quickMessages.insertVariable', {
                  name: `{{${name}}}`,
                  description: t(`quickMessages.variable.${name}`),
                })}
                data-testid={`quick-variable-${name}`}
              >
                {`{{${name}}}`}
              </Badge>
            </Tooltip>
          ))}
        </Group>

        <Text size="sm" fw={500}>
          {t('quickMessages.file')}
        </Text>
        {current ? (
          <Paper withBorder p="xs" radius="md">
            <Group justify="space-between" wrap="nowrap">
              <QuickMessageFile quick={current} />
              <Tooltip label={t('quickMessages.removeFile')}>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('quickMessages.removeFile')}
                  onClick={() => setRemoved(true)}
                  data-testid="quick-form-remove-file"
                >
                  <IconTrash size={18} aria-hidden />
                </ActionIcon>
              </Tooltip>
            </Group>
          </Paper>
        ) : null}
        {file ? (
          <Paper withBorder p="xs" radius="md">
            <Group justify="space-between" wrap="nowrap">
              <Group gap="xs" wrap="nowrap" miw={0}>
                <Badge variant="light">{t(`quickMessages.kind.${fileKind(file.file.type, file.voice)}`)}</Badge>
                <Text size="sm" truncate data-testid="quick-form-file">
                  {file.file.name}
                </Text>
              </Group>
              <Tooltip label={t('quickMessages.removeFile')}>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('quickMessages.removeFile')}
                  onClick={() => setFile(null)}
                >
                  <IconTrash size={18} aria-hidden />
                </ActionIcon>
              </Tooltip>
            </Group>
          </Paper>
        ) : null}
        {recorder.recording ? (
          <Group gap="xs" role="group" aria-label={t('quickMessages.record.recording')}>
            <Text size="sm" c="red" fw={500} aria-live="polite">
              ● {t('quickMessages.record.recording')} {formatElapsed(recorder.elapsed)}
            </Text>
            <Button variant="default" size="xs" onClick={recorder.cancel}>
              {t('common.cancel')}
            </Button>
            <Button
              color="red"
              size="xs"
              leftSection={<IconPlayerStopFilled size={14} aria-hidden />}
              onClick={() => void stopRecording()}
              data-testid="quick-record-stop"
            >
              {t('quickMessages.record.stop')}
            </Button>
          </Group>
        ) : (
          <Group gap="sm" align="stretch" wrap="nowrap">
            <Dropzone
              flex={1}
              onDrop={(files) => {
                const dropped = files[0];
                if (dropped) setFile({ file: dropped, voice: false });
                setRejected(false);
              }}
              onReject={() => {
                setRejected(true);
                notifyError(t('errors.ERR_PAYLOAD_TOO_LARGE'));
              }}
              accept={ACCEPT}
              maxSize={MEDIA_MAX_BYTES}
              maxFiles={1}
              multiple={false}
              aria-label={t('quickMessages.drop')}
              data-testid="quick-form-dropzone"
            >
              <Group justify="center" gap="sm" mih={64} style={{ pointerEvents: 'none' }} wrap="nowrap">
                <Dropzone.Accept>
                  <IconUpload size={28} aria-hidden color="var(--mantine-color-indigo-6)" />
                </Dropzone.Accept>
                <Dropzone.Reject>
                  <IconX size={28} aria-hidden color="var(--mantine-color-red-6)" />
                </Dropzone.Reject>
                <Dropzone.Idle>
                  <IconUpload size={28} aria-hidden color="var(--mantine-color-dimmed)" />
                </Dropzone.Idle>
                <Text size="sm">{t('quickMessages.drop')}</Text>
              </Group>
            </Dropzone>
            <Button
              variant="light"
              h="auto"
              leftSection={<IconMicrophone size={18} aria-hidden />}
              onClick={() => void startRecording()}
              data-testid="quick-record"
            >
              {t('quickMessages.record.start')}
            </Button>
          </Group>
        )}
        {rejected ? (
          <Text size="sm" c="red" role="alert" data-testid="quick-form-rejected">
            {t('errors.ERR_PAYLOAD_TOO_LARGE')}
          </Text>
        ) : null}
        <Switch
          label={t('quickMessages.active')}
          data-testid="quick-form-active"
          {...form.getInputProps('isActive', { type: 'checkbox' })}
        />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="quick-form-submit">
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
