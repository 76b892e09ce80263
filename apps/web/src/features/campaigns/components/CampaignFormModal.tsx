/**
 * The campaign form (product-spec §3 "Campaign", §5 rules, §9 up to three messages): name, start (day and time on
 * the company's clock), channel, delay, messages 1 to 3, their order, queue. Name, channel and a message are
 * required; the start may be left empty on a draft but never in the past. Sent as JSON (campaignInputSchema).
 */
import {
  Button,
  Center,
  Loader,
  Group,
  Modal,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { DateInput, DatesProvider } from '@mantine/dates';
import { useForm } from '@mantine/form';
import { IconCalendar, IconClock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  CAMPAIGN_DEFAULT_DELAY_SECONDS,
  CAMPAIGN_MAX_DELAY_SECONDS,
  CAMPAIGN_MIN_DELAY_SECONDS,
  type CampaignDto,
  type CampaignMessageOrder,
} from '@conversa/shared';
import { ApiError, describeError } from '../../../lib/api';
import { useTenantTimeZone } from '../../../lib/current-tenant';
import { dayjsLocale, parseDayInput, parseTimeInput, PICK_DAY_FORMAT } from '../../../lib/date-input';
import { currentLocale } from '../../../lib/i18n';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useCampaignChannels, useCampaignQueues, useSaveCampaign, type CampaignBody } from '../api/campaigns';
import { isPastStart, startInputs, wallClock } from '../campaign-dates';

interface CampaignFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** The campaign being edited (pending or canceled); undefined creates one. */
  campaign?: CampaignDto | undefined;
}

export function CampaignFormModal({ opened, onClose, campaign }: CampaignFormModalProps) {
  const { t } = useTranslation();
  // The start is read and typed on the company's clock: the form waits for the company's zone.
  const { timeZone, settled } = useTenantTimeZone();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={campaign ? t('campaigns.form.editTitle') : t('campaigns.form.newTitle')}
      size="lg"
      centered
    >
      {opened && settled ? (
        <CampaignForm key={`${campaign?.id ?? 'new'}-${timeZone}`} campaign={campaign} onDone={onClose} />
      ) : opened ? (
        <Center mih={200}>
          <Loader aria-label={t('common.loading')} />
        </Center>
      ) : null}
    </Modal>
  );
}

interface Values {
  name: string;
  day: string;
  time: string;
  sessionId: string | null;
  delay: number | string;
  message1: string;
  message2: string;
  message3: string;
  messageOrder: CampaignMessageOrder;
  queueId: string | null;
}

const orNull = (text: string) => (text.trim() ? text : null);

function CampaignForm({ campaign, onDone }: { campaign?: CampaignDto | undefined; onDone: () => void }) {
  const { t } = useTranslation();
  const { timeZone } = useTenantTimeZone();
  const save = useSaveCampaign();
  const channels = useCampaignChannels();
  const queues = useCampaignQueues();
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: {
      name: campaign?.name ?? '',
      ...startInputs(campaign?.start ?? null, timeZone),
      sessionId: campaign?.sessionId ? String(campaign.sessionId) : null,
      delay: campaign?.delay ?? CAMPAIGN_DEFAULT_DELAY_SECONDS,
      message1: campaign?.message1 ?? '',
      message2: campaign?.message2 ?? '',
      message3: campaign?.message3 ?? '',
      messageOrder: campaign?.messageOrder ?? 'rotate',
      queueId: campaign?.queueId ? String(campaign.queueId) : null,
    },
    validate: {
      name: (v) => (v.trim() ? null : t('validation.required', { attribute: t('campaigns.fields.name') })),
      sessionId: (v) => (v ? null : t('validation.required', { attribute: t('campaigns.fields.session') })),
      message1: (v, values) =>
        v.trim() || values.message2.trim() || values.message3.trim()
          ? null
          : t('validation.required', { attribute: t('campaigns.fields.message') }),
      day: (v, values) => {
        if (!v && !values.time.trim()) return null;
        if (!v) return t('validation.required', { attribute: t('campaigns.fields.day') });
        const time = parseTimeInput(values.time);
        if (!time) return null;
        return isPastStart(`${v} ${time}`, timeZone) ? t('campaigns.form.pastDate') : null;
      },
      time: (v, values) => {
        if (!v.trim()) return values.day ? t('validation.required', { attribute: t('campaigns.fields.time') }) : null;
        return parseTimeInput(v) ? null : t('validation.invalid', { attribute: t('campaigns.fields.time') });
      },
      delay: (v) => {
        const delay = Number(v);
        return Number.isInteger(delay) && delay >= CAMPAIGN_MIN_DELAY_SECONDS && delay <= CAMPAIGN_MAX_DELAY_SECONDS
          ? null
          : t('campaigns.form.delayRange', { min: CAMPAIGN_MIN_DELAY_SECONDS, max: CAMPAIGN_MAX_DELAY_SECONDS });
      },
    },
  });

  const submit = form.onSubmit((values) => {
    const time = parseTimeInput(values.time);
    const body: CampaignBody = {
      name: values.name.trim(),
      start: values.day && time ? `${values.day} ${time}` : null,
      sessionId: Number(values.sessionId),
      delay: Number(values.delay),
      message1: orNull(values.message1),
      message2: orNull(values.message2),
      message3: orNull(values.message3),
      mediaUrl: campaign?.mediaUrl ?? null,
      queueId: values.queueId ? Number(values.queueId) : null,
      messageOrder: values.messageOrder,
    };
    save.mutate(
      { id: campaign?.id, body },
      {
        onSuccess: () => {
          notifySuccess(campaign ? t('campaigns.saved') : t('campaigns.created'));
          onDone();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.code === 'ERROR_CAMPAIGN_DATE_NOT_VALID')
            form.setFieldError('day', describeError(error));
          notifyError(describeError(error));
        },
      },
    );
  });

  const channelData = (channels.data ?? []).map((c) => ({ value: String(c.id), label: c.name }));
  const queueData = (queues.data ?? []).map((q) => ({ value: String(q.id), label: q.queue }));
  const today = wallClock(new Date(), timeZone).slice(0, 10);
  const variables = '{{name}}, {{firstName}}, {{number}}';

  return (
    <form onSubmit={submit} noValidate data-testid="campaign-form">
      <Stack gap="sm">
        <TextInput
          label={t('campaigns.fields.name')}
          required
          data-autofocus
          autoComplete="off"
          maxLength={200}
          data-testid="campaign-form-name"
          {...form.getInputProps('name')}
        />
        <Group grow align="flex-start">
          <DatesProvider settings={{ locale: dayjsLocale(currentLocale()) }}>
            <DateInput
              label={t('campaigns.fields.day')}
              description={t('campaigns.form.startHint', { timeZone })}
              placeholder={t('campaigns.form.dayPlaceholder')}
              valueFormat={PICK_DAY_FORMAT}
              dateParser={parseDayInput}
              minDate={today}
              clearable
              leftSection={<IconCalendar size={16} aria-hidden />}
              data-testid="campaign-form-day"
              {...form.getInputProps('day')}
              value={form.values.day || null}
              onChange={(value) => form.setFieldValue('day', value ?? '')}
            />
          </DatesProvider>
          <TextInput
            label={t('campaigns.fields.time')}
            description={t('campaigns.form.timeHint')}
            placeholder={t('campaigns.form.timePlaceholder')}
            inputMode="numeric"
            autoComplete="off"
            maxLength={5}
            leftSection={<IconClock size={16} aria-hidden />}
            data-testid="campaign-form-time"
            {...form.getInputProps('time')}
            onBlur={(event) => {
              const time = parseTimeInput(event.currentTarget.value);
              if (time) form.setFieldValue('time', time);
            }}
          />
        </Group>
        <Group grow align="flex-start">
          <Select
            label={t('campaigns.fields.session')}
            required
            searchable
            data={channelData}
            nothingFoundMessage={channels.isFetching ? t('common.loading') : t('campaigns.form.noChannels')}
            data-testid="campaign-form-session"
            {...form.getInputProps('sessionId')}
          />
          <NumberInput
            label={t('campaigns.fields.delay')}
            description={t('campaigns.form.delayHint')}
            min={CAMPAIGN_MIN_DELAY_SECONDS}
            max={CAMPAIGN_MAX_DELAY_SECONDS}
            allowDecimal={false}
            data-testid="campaign-form-delay"
            {...form.getInputProps('delay')}
          />
        </Group>
        <Text size="sm" c="dimmed" id="campaign-variables-hint">
          {t('campaigns.form.variablesHint', { variables })}
        </Text>
        {(['message1', 'message2', 'message3'] as const).map((field, index) => (
          <Textarea
            key={field}
            label={t('campaigns.fields.messageN', { n: index + 1 })}
            required={index === 0}
            autosize
            minRows={index === 0 ? 3 : 2}
            maxRows={8}
            maxLength={4096}
            aria-describedby="campaign-variables-hint"
            data-testid={`campaign-form-${field}`}
            {...form.getInputProps(field)}
          />
        ))}
        <div>
          <Text size="sm" fw={500} mb={4} id="campaign-order-label">
            {t('campaigns.fields.messageOrder')}
          </Text>
          <SegmentedControl
            aria-labelledby="campaign-order-label"
            data={[
              { value: 'rotate', label: t('campaigns.order.rotate') },
              { value: 'random', label: t('campaigns.order.random') },
            ]}
            data-testid="campaign-form-order"
            {...form.getInputProps('messageOrder')}
          />
        </div>
        <Select
          label={t('campaigns.fields.queue')}
          description={t('campaigns.form.queueHint')}
          clearable
          data={queueData}
          data-testid="campaign-form-queue"
          {...form.getInputProps('queueId')}
        />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="campaign-form-submit">
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
