/** The integrations tab: one section per AI or automation integration, its keys as plain settings. */
import { Accordion, PasswordInput, Select, SimpleGrid, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { ChannelDto, ChannelIntegrationKey } from '@conversa/shared';
import { hasSecret, isSecretIntegration, type ChannelFormValues } from '../hooks/channel-form';

type Form = UseFormReturnType<ChannelFormValues>;

const SECTIONS: { id: string; keys: ChannelIntegrationKey[] }[] = [
  {
    id: 'chatgpt',
    keys: [
      'chatgptApiKey',
      'chatgptOrganizationId',
      'chatgptModel',
      'assistantId',
      'chatgptVoiceModel',
      'chatgptVoice',
      'chatgptOff',
      'chatgptPrompt',
    ],
  },
  {
    id: 'typebot',
    keys: [
      'typebotUrl',
      'typebotName',
      'typebotOff',
      'typebotRestart',
      'typebotUnknowMessage',
      'typebotButtonChoiceMessage',
    ],
  },
  { id: 'dify', keys: ['difyUrl', 'difyKey', 'difyType', 'difyOff', 'difyRestart'] },
  {
    id: 'dialogflow',
    keys: ['dialogflowProjectId', 'dialogflowLanguage', 'dialogflowOff', 'dialogflowJsonFilename', 'dialogflowJson'],
  },
  { id: 'lm', keys: ['lmUrl', 'lmModel', 'lmOff', 'lmPrompt'] },
  { id: 'n8n', keys: ['n8nUrl'] },
  { id: 'transcription', keys: ['transcribeAudioJson'] },
];

/** Long texts span the whole row. */
const LONG_TEXT = new Set<ChannelIntegrationKey>(['chatgptPrompt', 'lmPrompt', 'transcribeAudioJson']);
const DIFY_TYPES = ['agent', 'textGenerator', 'chatBot', 'workflow'] as const;

export function IntegrationsPanel({ form, channel }: { form: Form; channel?: ChannelDto }) {
  const { t } = useTranslation();
  return (
    <Accordion variant="separated" multiple defaultValue={['chatgpt']}>
      {SECTIONS.map((section) => (
        <Accordion.Item key={section.id} value={section.id}>
          <Accordion.Control data-testid={`channel-integration-${section.id}`}>
            {t(`channels.integrations.${section.id}`)}
          </Accordion.Control>
          <Accordion.Panel>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              {section.keys.map((key) => (
                <IntegrationField key={key} form={form} field={key} kept={hasSecret(channel, key)} />
              ))}
            </SimpleGrid>
          </Accordion.Panel>
        </Accordion.Item>
      ))}
    </Accordion>
  );
}

function IntegrationField({ form, field, kept }: { form: Form; field: ChannelIntegrationKey; kept: boolean }) {
  const { t } = useTranslation();
  const common = {
    label: t(`channels.integrations.fields.${field}`),
    'data-testid': `channel-form-${field}`,
    ...form.getInputProps(`integrations.${field}`),
  };
  if (field === 'difyType') {
    return (
      <Select
        {...common}
        data={DIFY_TYPES.map((type) => ({ value: type, label: t(`channels.integrations.difyTypes.${type}`) }))}
        clearable
        placeholder={t('channels.form.none')}
        value={form.getValues().integrations.difyType || null}
        onChange={(value) => form.setFieldValue('integrations.difyType', value ?? '')}
      />
    );
  }
  if (isSecretIntegration(field)) {
    return (
      <PasswordInput
        {...common}
        description={kept ? t('channels.form.secretKept') : undefined}
        placeholder={kept ? t('channels.form.secretKeptPlaceholder') : undefined}
        autoComplete="new-password"
      />
    );
  }
  if (LONG_TEXT.has(field)) {
    return <Textarea {...common} rows={4} resize="vertical" style={{ gridColumn: '1 / -1' }} />;
  }
  return <TextInput {...common} autoComplete="off" />;
}
