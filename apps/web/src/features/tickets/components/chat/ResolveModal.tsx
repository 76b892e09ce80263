import { useState } from 'react';
import { Alert, Button, Group, Modal, Radio, Select, Stack, Switch, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { FAREWELL_MESSAGE_MAX, type TicketDto } from '@conversa/shared';
import { describeError } from '../../../../lib/api';
import { notifySuccess } from '../../../../lib/notify';
import {
  ratingAvailable,
  useFarewellOptions,
  useReasonOptions,
  useReasonRequired,
  useResolveTicket,
  type ResolveRequest,
} from '../../api/resolve';

type FarewellMode = 'channel' | 'none' | 'library' | 'custom';

interface ResolveModalProps {
  ticket: TicketDto;
  opened: boolean;
  onClose: () => void;
  /** Who the resolve is recorded for (the assignee, else the caller). */
  ownerId: number;
}

/**
 * The resolve dialog (product-spec §4): a closing message (the channel's by default, none, one from the library or
 * written here), a reason (required when the tenant says so) and, when the ticket's channel sends ratings, "send
 * rating" (default on: the closing message goes first, then the menu, and the ticket stays open until the customer
 * answers).
 */
export function ResolveModal({ ticket, opened, onClose, ownerId }: ResolveModalProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('resolve.dialog.title')} centered data-testid="resolve-modal">
      {opened ? <ResolveForm ticket={ticket} ownerId={ownerId} onDone={onClose} /> : null}
    </Modal>
  );
}

interface FormValues {
  sendRating: boolean;
  farewellMode: FarewellMode;
  farewellId: string | null;
  farewellText: string;
  reasonId: string | null;
}

/** The request a filled form sends (exported for its unit test). */
export function resolveRequest(ticketId: number, ownerId: number, values: FormValues, library: Map<string, string>) {
  const reasons = values.reasonId ? Number(values.reasonId) : undefined;
  const text =
    values.farewellMode === 'library'
      ? (library.get(values.farewellId ?? '') ?? '')
      : values.farewellMode === 'custom'
        ? values.farewellText.trim()
        : '';
  if (values.sendRating) {
    // The farewell goes first, then the rating menu (product-spec §4); the channel's is the server's to read.
    const farewell = text ? { farewellMessage: text } : values.farewellMode === 'channel' ? { sendFarewell: true } : {};
    return {
      kind: 'rating',
      body: { ticketId, ...(reasons ? { reasons } : {}), ...farewell },
    } satisfies ResolveRequest;
  }
  return {
    kind: 'close',
    body: {
      status: 'closed',
      userId: ownerId,
      sendFarewell: values.farewellMode !== 'none',
      ...(text ? { farewellMessage: text } : {}),
      ...(reasons ? { reasons } : {}),
    },
  } satisfies ResolveRequest;
}

function ResolveForm({ ticket, ownerId, onDone }: { ticket: TicketDto; ownerId: number; onDone: () => void }) {
  const { t } = useTranslation();
  const canRate = ratingAvailable(ticket);
  const farewells = useFarewellOptions(true);
  const reasons = useReasonOptions(true);
  const reasonRequired = useReasonRequired(true);
  const resolve = useResolveTicket(ticket.id);
  const [failure, setFailure] = useState<string | null>(null);
  const library = new Map((farewells.data ?? []).map((f) => [String(f.id), f.message]));

  const form = useForm<FormValues>({
    mode: 'controlled',
    initialValues: {
      sendRating: canRate,
      // The channel's farewell is the default, with a rating too (it is sent before the menu).
      farewellMode: 'channel',
      farewellId: null,
      farewellText: '',
      reasonId: ticket.reasons ? String(ticket.reasons) : null,
    },
    validate: {
      farewellId: (value, values) =>
        values.farewellMode === 'library' && !value
          ? t('validation.required', { attribute: t('resolve.dialog.farewellPick') })
          : null,
      farewellText: (value, values) =>
        values.farewellMode === 'custom' && !value.trim()
          ? t('validation.required', { attribute: t('resolve.dialog.farewellText') })
          : null,
      reasonId: (value) =>
        reasonRequired && !value ? t('validation.required', { attribute: t('resolve.dialog.reason') }) : null,
    },
  });
  const rating = form.values.sendRating;

  const submit = form.onSubmit((values) => {
    setFailure(null);
    const request = resolveRequest(ticket.id, ownerId, values, library);
    resolve.mutate(request, {
      onSuccess: () => {
        notifySuccess(request.kind === 'rating' ? t('resolve.dialog.rated') : t('resolve.dialog.resolved'));
        onDone();
      },
      onError: (error) => setFailure(describeError(error)),
    });
  });

  const modes: FarewellMode[] = ['channel', 'none', 'library', 'custom'];

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {canRate ? (
          <Switch
            label={t('resolve.dialog.sendRating')}
            description={t('resolve.dialog.sendRatingHint')}
            data-testid="resolve-rating"
            {...form.getInputProps('sendRating', { type: 'checkbox' })}
          />
        ) : null}
        <Radio.Group
          label={t('resolve.dialog.farewell')}
          data-testid="resolve-farewell-mode"
          {...form.getInputProps('farewellMode')}
        >
          <Stack gap={6} mt={6}>
            {modes.map((mode) => (
              <Radio
                key={mode}
                value={mode}
                label={t(`resolve.dialog.farewellModes.${mode}`)}
                data-testid={`resolve-farewell-${mode}`}
              />
            ))}
          </Stack>
        </Radio.Group>
        {form.values.farewellMode === 'library' ? (
          <Select
            label={t('resolve.dialog.farewellPick')}
            placeholder={t('resolve.dialog.farewellPickPlaceholder')}
            nothingFoundMessage={t('resolve.dialog.farewellEmpty')}
            data={(farewells.data ?? []).map((f) => ({ value: String(f.id), label: f.message }))}
            searchable
            required
            data-testid="resolve-farewell-pick"
            {...form.getInputProps('farewellId')}
          />
        ) : null}
        {form.values.farewellMode === 'custom' ? (
          <Textarea
            label={t('resolve.dialog.farewellText')}
            autosize
            minRows={3}
            maxLength={FAREWELL_MESSAGE_MAX}
            required
            data-testid="resolve-farewell-text"
            {...form.getInputProps('farewellText')}
          />
        ) : null}
        <Select
          label={t('resolve.dialog.reason')}
          placeholder={t('resolve.dialog.reasonPlaceholder')}
          nothingFoundMessage={t('resolve.dialog.reasonEmpty')}
          data={(reasons.data ?? []).map((r) => ({ value: String(r.id), label: r.name }))}
          searchable
          clearable={!reasonRequired}
          required={reasonRequired}
          data-testid="resolve-reason"
          {...form.getInputProps('reasonId')}
        />
        {rating ? (
          <Text size="sm" c="dimmed">
            {t('resolve.dialog.ratingNote')}
          </Text>
        ) : null}
        {failure ? (
          <Alert color="red" role="alert" data-testid="resolve-error">
            {failure}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" color="teal" loading={resolve.isPending} data-testid="resolve-confirm">
            {rating ? t('resolve.dialog.confirmRating') : t('resolve.dialog.confirm')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
