import { useMemo, useState, type FormEvent } from 'react';
import {
  Alert,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Modal,
  Radio,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconAlertCircle, IconRefresh, IconSearch, IconTemplate } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { QueryError } from '../../../../components/QueryError';
import { describeError } from '../../../../lib/api';
import { notifyError, notifySuccess } from '../../../../lib/notify';
import { useStoredSession } from '../../../../lib/storage';
import { useSendTemplate, useSyncWabaTemplates, useWabaTemplates, type WabaTemplate } from '../../api/waba-templates';
import {
  buildComponents,
  emptyTemplateValues,
  fieldValue,
  parseTemplate,
  templateFields,
  validateTemplate,
  type FieldError,
  type TemplateField,
  type TemplateValues,
} from '../../hooks/waba-template';
import classes from './official.module.css';
import { TemplatePreview } from './TemplatePreview';

interface TemplatePickerModalProps {
  ticketId: number;
  /** The ticket's waba channel: its templates are listed. */
  channelId: number;
  opened: boolean;
  onClose: () => void;
}

const setField = (values: TemplateValues, field: TemplateField, value: string): TemplateValues => {
  if (field.part === 'headerMedia') return { ...values, headerMediaUrl: value };
  if (field.part === 'header') return { ...values, header: { ...values.header, [field.key]: value } };
  if (field.part === 'body') return { ...values, body: { ...values.body, [field.key]: value } };
  return { ...values, buttons: { ...values.buttons, [field.index ?? 0]: value } };
};

function TemplateOption({ template }: { template: WabaTemplate }) {
  return (
    <Radio.Card value={String(template.id)} radius="sm" p="xs" data-testid={`template-option-${template.name}`}>
      <Group wrap="nowrap" align="flex-start" gap="xs">
        <Radio.Indicator size="xs" mt={3} />
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text size="sm" fw={600} truncate>
            {template.name}
          </Text>
          <Group gap={4}>
            <Badge size="xs" variant="light" tt="none">
              {template.language}
            </Badge>
            {template.category ? (
              <Badge size="xs" variant="outline" color="gray" tt="none">
                {template.category}
              </Badge>
            ) : null}
          </Group>
        </Stack>
      </Group>
    </Radio.Card>
  );
}

function fieldLabel(t: (key: string, options?: Record<string, unknown>) => string, field: TemplateField): string {
  if (field.part === 'headerMedia') return t(`chat.templates.headerMediaUrl.${field.key}`);
  if (field.part === 'header') return t('chat.templates.headerVariable', { name: `{{${field.key}}}` });
  if (field.part === 'body') return t('chat.templates.bodyVariable', { name: `{{${field.key}}}` });
  return t('chat.templates.buttonVariable', { index: (field.index ?? 0) + 1 });
}

/**
 * The template picker of a WhatsApp Cloud API ticket: the channel's APPROVED templates (search by name, language and
 * category badges, "Sync" reads them again from Meta), an input for every variable of the chosen one, a live
 * preview, and the send (`POST /wabametaTemplateComponents`). Refusals stay in the dialog to be corrected.
 */
export function TemplatePickerModal({ ticketId, channelId, opened, onClose }: TemplatePickerModalProps) {
  const { t } = useTranslation();
  const templates = useWabaTemplates(channelId, opened);
  const sync = useSyncWabaTemplates(channelId);
  // A forced sync spends the company's Graph quota: supervisors and up (the server refuses agents; a stale list
  // syncs by itself when opened).
  const profile = useStoredSession()?.profile;
  const canSync = profile === 'super' || profile === 'admin' || profile === 'superadmin';
  const send = useSendTemplate(ticketId);
  const [search, setSearch] = useState('');
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [values, setValues] = useState<TemplateValues>(emptyTemplateValues);
  const [errors, setErrors] = useState<Record<string, FieldError>>({});
  const [submitted, setSubmitted] = useState(false);

  const approved = useMemo(
    () => (templates.data ?? []).filter((template) => template.status.toUpperCase() === 'APPROVED'),
    [templates.data],
  );
  const needle = search.trim().toLowerCase();
  const shown = needle ? approved.filter((template) => template.name.toLowerCase().includes(needle)) : approved;
  const selected = approved.find((template) => String(template.id) === selectedId) ?? null;
  const parsed = useMemo(() => (selected ? parseTemplate(selected.components) : null), [selected]);
  const fields = parsed ? templateFields(parsed) : [];

  const choose = (id: string) => {
    setSelectedId(id);
    setValues(emptyTemplateValues());
    setErrors({});
    setSubmitted(false);
    send.reset();
  };

  const change = (field: TemplateField, value: string) => {
    const next = setField(values, field, value);
    setValues(next);
    // After a first try, errors follow the typing.
    if (submitted && parsed) setErrors(validateTemplate(parsed, next));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!selected || !parsed || send.isPending) return;
    setSubmitted(true);
    const found = validateTemplate(parsed, values);
    setErrors(found);
    const first = fields.find((field) => found[field.id]);
    if (first) {
      document.getElementById(`template-field-${first.id}`)?.focus();
      return;
    }
    send.mutate(
      {
        idFront: crypto.randomUUID(),
        templateName: selected.name,
        language: selected.language,
        components: buildComponents(parsed, values),
      },
      {
        onSuccess: () => {
          notifySuccess(t('chat.templates.sent'));
          onClose();
        },
      },
    );
  };

  const runSync = () =>
    sync.mutate(undefined, { onError: (error) => notifyError(describeError(error), t('chat.templates.syncFailed')) });

  let list;
  if (templates.isPending) {
    list = (
      <Center p="md" role="status" aria-label={t('common.loading')}>
        <Loader size="sm" />
      </Center>
    );
  } else if (templates.isError) {
    list = <QueryError error={templates.error} onRetry={() => void templates.refetch()} />;
  } else if (approved.length === 0) {
    list = (
      <Text size="sm" c="dimmed" data-testid="template-empty">
        {t('chat.templates.empty')}
      </Text>
    );
  } else if (shown.length === 0) {
    list = (
      <Text size="sm" c="dimmed" data-testid="template-no-match">
        {t('chat.templates.noMatch')}
      </Text>
    );
  } else {
    list = (
      <Radio.Group value={selectedId} onChange={choose} label={t('chat.templates.list')} size="sm">
        <Stack gap={6} mt={6} className={classes.templateList}>
          {shown.map((template) => (
            <TemplateOption key={template.id} template={template} />
          ))}
        </Stack>
      </Radio.Group>
    );
  }

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('chat.templates.title')}
      size="xl"
      closeButtonProps={{ 'aria-label': t('common.close') }}
      data-testid="template-picker"
    >
      <Group align="flex-end" gap="xs">
        <TextInput
          flex={1}
          label={t('chat.templates.search')}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          data-testid="template-search"
        />
        {canSync ? (
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} aria-hidden />}
            loading={sync.isPending}
            onClick={runSync}
            data-testid="template-sync"
          >
            {t('chat.templates.sync')}
          </Button>
        ) : null}
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }} mt="md" spacing="lg">
        <div>{list}</div>
        <div>
          {selected && parsed ? (
            <form id="template-form" onSubmit={submit} noValidate>
              <Stack gap="sm">
                {fields.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    {t('chat.templates.noVariables')}
                  </Text>
                ) : (
                  fields.map((field) => {
                    const error = errors[field.id];
                    return (
                      <TextInput
                        key={`${selected.id}-${field.id}`}
                        id={`template-field-${field.id}`}
                        label={fieldLabel(t, field)}
                        type={field.part === 'headerMedia' ? 'url' : 'text'}
                        placeholder={field.part === 'headerMedia' ? 'https://' : undefined}
                        withAsterisk
                        required
                        value={fieldValue(values, field)}
                        onChange={(event) => change(field, event.currentTarget.value)}
                        error={error ? t(`chat.templates.errors.${error}`) : undefined}
                        maxLength={field.part === 'headerMedia' ? 2000 : 1024}
                        data-testid={`template-field-${field.id}`}
                      />
                    );
                  })
                )}
                <TemplatePreview template={parsed} values={values} />
              </Stack>
            </form>
          ) : (
            <Center h="100%" p="md">
              <Group gap="xs" c="dimmed">
                <IconTemplate size={18} aria-hidden />
                <Text size="sm">{t('chat.templates.choose')}</Text>
              </Group>
            </Center>
          )}
        </div>
      </SimpleGrid>
      {send.isError ? (
        <Alert
          mt="md"
          color="red"
          variant="light"
          icon={<IconAlertCircle size={16} aria-hidden />}
          role="alert"
          data-testid="template-send-error"
        >
          {describeError(send.error)}
        </Alert>
      ) : null}
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button
          type="submit"
          form="template-form"
          disabled={!selected}
          loading={send.isPending}
          data-testid="template-send"
        >
          {t('chat.templates.send')}
        </Button>
      </Group>
    </Modal>
  );
}
