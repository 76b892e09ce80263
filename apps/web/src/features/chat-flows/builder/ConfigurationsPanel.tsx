/**
 * The flow's configurations (chatFlowConfigurationsSchema): messages, the invalid-answer and no-answer rules, the
 * retries limit, out-of-hours and returning-contact destinations, keywords and the distribution mode. Each field says
 * what it does (decisions §C).
 */
import { Fieldset, NumberInput, Stack, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ChatFlowConfigurations } from '@conversa/shared';
import { useBuilder } from './builder.context';
import { DestinationFields, OptionSelect, type Destination } from './PanelFields';

type Configurations = ChatFlowConfigurations;

const destinationOf = (value: { type?: number; destiny?: number | null } | undefined): Destination => ({
  type: value?.type === 2 ? 2 : 1,
  destiny: value?.destiny ?? null,
});

export function ConfigurationsPanel({ configurations: c }: { configurations: Configurations }) {
  const { t } = useTranslation();
  const { dispatch } = useBuilder();
  const change = (update: (c: Configurations) => Configurations, field?: string) =>
    dispatch({ type: 'updateConfigurations', update, coalesce: field ? `config:${field}` : undefined });

  const notOptions = { message: '', stepReturn: 'A' as const, ...c.notOptionsSelectMessage };
  const noResponse = { time: 0, message: '', ...c.notResponseMessage, ...destinationOf(c.notResponseMessage) };
  const retries = { number: 0, ...c.maxRetryBotMessage, ...destinationOf(c.maxRetryBotMessage) };

  return (
    <Stack gap="sm">
      <Textarea
        label={t('flowBuilder.config.welcome')}
        description={t('flowBuilder.config.welcomeHelp')}
        autosize
        minRows={2}
        maxLength={4096}
        value={c.welcomeMessage?.message ?? ''}
        onChange={(event) => {
          const message = event.currentTarget.value;
          change((x) => ({ ...x, welcomeMessage: { ...x.welcomeMessage, message } }), 'welcome');
        }}
      />
      <Textarea
        label={t('flowBuilder.config.farewell')}
        description={t('flowBuilder.config.farewellHelp')}
        autosize
        minRows={2}
        maxLength={4096}
        value={c.farewellMessage?.message ?? ''}
        onChange={(event) => {
          const message = event.currentTarget.value;
          change((x) => ({ ...x, farewellMessage: { ...x.farewellMessage, message } }), 'farewell');
        }}
      />
      <Fieldset legend={t('flowBuilder.config.invalidTitle')} p="xs">
        <Stack gap={6}>
          <Textarea
            label={t('flowBuilder.config.invalidMessage')}
            description={t('flowBuilder.config.invalidHelp')}
            autosize
            minRows={1}
            maxLength={4096}
            value={notOptions.message}
            onChange={(event) => {
              const message = event.currentTarget.value;
              change(
                (x) => ({ ...x, notOptionsSelectMessage: { ...notOptions, ...x.notOptionsSelectMessage, message } }),
                'invalid',
              );
            }}
          />
          <OptionSelect
            label={t('flowBuilder.config.stepReturn')}
            value={notOptions.stepReturn}
            options={[
              { value: 'A', label: t('flowBuilder.config.returnStep') },
              { value: 'S', label: t('flowBuilder.config.returnStart') },
            ]}
            onChange={(value) =>
              change((x) => ({
                ...x,
                notOptionsSelectMessage: {
                  ...notOptions,
                  ...x.notOptionsSelectMessage,
                  stepReturn: value === 'S' ? 'S' : 'A',
                },
              }))
            }
          />
        </Stack>
      </Fieldset>
      <Fieldset legend={t('flowBuilder.config.noResponseTitle')} p="xs">
        <Stack gap={6}>
          <NumberInput
            label={t('flowBuilder.config.noResponseTime')}
            description={t('flowBuilder.config.noResponseTimeHelp')}
            min={0}
            max={10080}
            allowDecimal={false}
            clampBehavior="strict"
            value={noResponse.time}
            onChange={(value) => {
              const time = Math.max(0, Number(value) || 0);
              change(
                (x) => ({ ...x, notResponseMessage: { ...noResponse, ...x.notResponseMessage, time } }),
                'noResponseTime',
              );
            }}
          />
          <DestinationFields
            label={t('flowBuilder.config.noResponseTitle')}
            value={destinationOf(noResponse)}
            onChange={(d) =>
              change((x) => ({ ...x, notResponseMessage: { ...noResponse, ...x.notResponseMessage, ...d } }))
            }
          />
          <Textarea
            label={t('flowBuilder.config.noResponseMessage')}
            autosize
            minRows={1}
            maxLength={4096}
            value={noResponse.message}
            onChange={(event) => {
              const message = event.currentTarget.value;
              change(
                (x) => ({ ...x, notResponseMessage: { ...noResponse, ...x.notResponseMessage, message } }),
                'noResponseMessage',
              );
            }}
          />
        </Stack>
      </Fieldset>
      <Fieldset legend={t('flowBuilder.config.retriesTitle')} p="xs">
        <Stack gap={6}>
          <NumberInput
            label={t('flowBuilder.config.retriesNumber')}
            description={t('flowBuilder.config.retriesHelp')}
            min={0}
            max={100}
            allowDecimal={false}
            clampBehavior="strict"
            value={retries.number}
            onChange={(value) => {
              const number = Math.max(0, Number(value) || 0);
              change((x) => ({ ...x, maxRetryBotMessage: { ...retries, ...x.maxRetryBotMessage, number } }), 'retries');
            }}
          />
          <DestinationFields
            label={t('flowBuilder.config.retriesTitle')}
            value={destinationOf(retries)}
            onChange={(d) =>
              change((x) => ({ ...x, maxRetryBotMessage: { ...retries, ...x.maxRetryBotMessage, ...d } }))
            }
          />
        </Stack>
      </Fieldset>
      <Fieldset legend={t('flowBuilder.config.outOfHoursTitle')} p="xs">
        <Stack gap={6}>
          <OptionalDestination
            label={t('flowBuilder.config.outOfHoursTitle')}
            help={t('flowBuilder.config.outOfHoursHelp')}
            value={c.outOpenHours}
            onChange={(outOpenHours) => change((x) => ({ ...x, outOpenHours }))}
          />
        </Stack>
      </Fieldset>
      <Fieldset legend={t('flowBuilder.config.firstInteractionTitle')} p="xs">
        <OptionalDestination
          label={t('flowBuilder.config.firstInteractionTitle')}
          help={t('flowBuilder.config.firstInteractionHelp')}
          value={c.firstInteraction}
          onChange={(firstInteraction) => change((x) => ({ ...x, firstInteraction }))}
        />
      </Fieldset>
      <TextInput
        label={t('flowBuilder.config.keyword')}
        description={t('flowBuilder.config.keywordHelp')}
        maxLength={1000}
        value={c.keyword?.message ?? ''}
        onChange={(event) => {
          const message = event.currentTarget.value;
          change((x) => ({ ...x, keyword: { ...x.keyword, message } }), 'keyword');
        }}
      />
      <OptionSelect
        label={t('flowBuilder.config.distribution')}
        description={t('flowBuilder.config.distributionHelp')}
        value={c.autoDistributeTickets ?? ''}
        placeholder={t('flowBuilder.config.distributionDefault')}
        options={(['N', 'R', 'B'] as const).map((mode) => ({
          value: mode,
          label: t(`flowBuilder.distribution.${mode}`),
        }))}
        onChange={(value) =>
          change((x) => {
            const { autoDistributeTickets: _, ...rest } = x;
            return value ? { ...rest, autoDistributeTickets: value as 'N' | 'R' | 'B' } : rest;
          })
        }
      />
    </Stack>
  );
}

/** A destination that may be off: "not used" removes the setting. */
function OptionalDestination({
  label,
  help,
  value,
  onChange,
}: {
  label: string;
  help: string;
  value: Configurations['outOpenHours'];
  onChange: (next: Configurations['outOpenHours']) => void;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap={6}>
      <OptionSelect
        label={t('flowBuilder.config.enabled', { item: label })}
        description={help}
        value={value ? 'on' : ''}
        placeholder={t('flowBuilder.config.notUsed')}
        options={[{ value: 'on', label: t('flowBuilder.config.used') }]}
        onChange={(on) => onChange(on ? { ...destinationOf(value) } : undefined)}
      />
      {value ? (
        <DestinationFields label={label} value={destinationOf(value)} onChange={(d) => onChange({ ...value, ...d })} />
      ) : null}
    </Stack>
  );
}
