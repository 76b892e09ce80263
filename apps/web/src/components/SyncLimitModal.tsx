import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../lib/i18n';
import { parseSyncLimit, SYNC_LIMIT_MAX } from '../lib/live-channels';

interface SyncLimitModalProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  description: string;
  submitLabel: string;
  /** The request is running: the form is locked and the button spins. */
  loading: boolean;
  /** The last failure's text (catalogue text of the server's code), shown in the dialog. */
  error: string | null;
  onSubmit: (limit: number) => void;
  testId: string;
}

/**
 * Asks how many messages a history import fetches (product-spec "Sync history": the limit must be a positive
 * number). Used by the chat ("Sync history") and the channels screen ("Import old messages").
 */
export function SyncLimitModal(props: SyncLimitModalProps) {
  const { t } = useTranslation();
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const { opened, loading, testId } = props;
  // Each opening starts empty (state adjusted while rendering, not in an effect).
  const [shownOpened, setShownOpened] = useState(opened);
  if (opened !== shownOpened) {
    setShownOpened(opened);
    if (opened) {
      setValue('');
      setInvalid(null);
    }
  }

  const close = () => {
    if (!loading) props.onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (loading) return;
    const limit = parseSyncLimit(value);
    if (limit === null) return setInvalid(t('historySync.limitInvalid'));
    if (limit === 'max')
      return setInvalid(
        t('historySync.limitMax', { max: new Intl.NumberFormat(currentLocale()).format(SYNC_LIMIT_MAX) }),
      );
    setInvalid(null);
    props.onSubmit(limit);
  };

  return (
    <Modal opened={opened} onClose={close} title={props.title} closeOnClickOutside={!loading} data-testid={testId}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm">{props.description}</Text>
          <TextInput
            label={t('historySync.limitLabel')}
            description={t('historySync.limitHint')}
            inputMode="numeric"
            autoComplete="off"
            required
            value={value}
            onChange={(event) => {
              setValue(event.currentTarget.value);
              if (invalid) setInvalid(null);
            }}
            error={invalid}
            disabled={loading}
            data-autofocus
            data-testid={`${testId}-limit`}
          />
          {props.error ? (
            <Alert
              color="red"
              icon={<IconAlertTriangle size={16} aria-hidden />}
              role="alert"
              data-testid={`${testId}-error`}
            >
              {props.error}
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close} disabled={loading}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={loading} data-testid={`${testId}-submit`}>
              {props.submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
