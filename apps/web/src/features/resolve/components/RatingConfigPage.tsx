import { useEffect } from 'react';
import { Button, Group, NumberInput, Paper, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { DEFAULT_RATING, RATING_QUESTION, ratingMenuText } from '@conversa/shared';
import { QueryError } from '../../../components/QueryError';
import { describeError } from '../../../lib/api';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useRatingConfig, useSaveRatingConfig } from '../api/resolve-admin';

interface Values {
  labels: string[];
  ratingStore: string;
  ratingStoreAttemp: string;
  ratingStoreError: string;
  ratingAttempts: number | string;
}

/** /avaliacoes/configurar: the six labels (0-5), the three replies, and the attempts before a rating fails. */
export function RatingConfigPage() {
  const { t } = useTranslation();
  const config = useRatingConfig();
  const save = useSaveRatingConfig();
  const requiredText = (value: string, attribute: string) =>
    value.trim() ? null : t('validation.required', { attribute });
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: {
      labels: DEFAULT_RATING.map((r) => r.label),
      ratingStore: '',
      ratingStoreAttemp: '',
      ratingStoreError: '',
      ratingAttempts: 3,
    },
    validate: (values) => {
      const errors: Record<string, string | null> = {};
      values.labels.forEach((label, n) => {
        errors[`labels.${n}`] = requiredText(label, t('resolve.config.label', { n }));
      });
      errors.ratingStore = requiredText(values.ratingStore, t('resolve.config.ratingStore'));
      errors.ratingStoreAttemp = requiredText(values.ratingStoreAttemp, t('resolve.config.ratingStoreAttemp'));
      errors.ratingStoreError = requiredText(values.ratingStoreError, t('resolve.config.ratingStoreError'));
      const attempts = Number(values.ratingAttempts);
      errors.ratingAttempts =
        Number.isInteger(attempts) && attempts >= 1 && attempts <= 10 ? null : t('resolve.config.attemptsRange');
      return errors;
    },
  });
  const { setValues, resetDirty } = form;
  useEffect(() => {
    if (!config.data) return;
    const labels = [0, 1, 2, 3, 4, 5].map(
      (n) => config.data.rating.find((r) => r.rating === n)?.label ?? DEFAULT_RATING[n]!.label,
    );
    setValues({
      labels,
      ratingStore: config.data.ratingStore,
      ratingStoreAttemp: config.data.ratingStoreAttemp,
      ratingStoreError: config.data.ratingStoreError,
      ratingAttempts: config.data.ratingAttempts,
    });
    resetDirty();
    // Once per load of the configuration.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [config.data]);

  if (config.isError && !config.data) return <QueryError error={config.error} onRetry={() => void config.refetch()} />;

  const submit = form.onSubmit((values) =>
    save.mutate(
      {
        id: config.data!.id,
        labels: values.labels.map((label, rating) => ({ rating, label: label.trim() })),
        data: {
          ratingStore: values.ratingStore.trim(),
          ratingStoreAttemp: values.ratingStoreAttemp.trim(),
          ratingStoreError: values.ratingStoreError.trim(),
          ratingAttempts: Number(values.ratingAttempts),
        },
      },
      {
        onSuccess: () => notifySuccess(t('resolve.config.saved')),
        onError: (error) => notifyError(describeError(error)),
      },
    ),
  );

  const preview = ratingMenuText(
    RATING_QUESTION,
    form.values.labels.map((label, rating) => ({ rating, label })),
  );

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Paper withBorder p="md" radius="md">
          <Text fw={600} mb="sm">
            {t('resolve.config.labels')}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
            {form.values.labels.map((_, n) => (
              <TextInput
                key={n}
                label={t('resolve.config.label', { n })}
                required
                maxLength={100}
                disabled={config.isPending}
                data-testid={`rating-label-${n}`}
                {...form.getInputProps(`labels.${n}`)}
              />
            ))}
          </SimpleGrid>
          <Text size="sm" c="dimmed" mt="md">
            {t('resolve.config.preview')}
          </Text>
          <Text size="sm" component="pre" style={{ whiteSpace: 'pre-wrap', margin: 0 }} data-testid="rating-preview">
            {preview}
          </Text>
        </Paper>
        <Paper withBorder p="md" radius="md">
          <Stack gap="sm">
            <Textarea
              label={t('resolve.config.ratingStore')}
              description={t('resolve.config.ratingStoreHint')}
              required
              autosize
              minRows={2}
              maxLength={1000}
              data-testid="rating-store"
              {...form.getInputProps('ratingStore')}
            />
            <Textarea
              label={t('resolve.config.ratingStoreAttemp')}
              description={t('resolve.config.ratingStoreAttempHint')}
              required
              autosize
              minRows={2}
              maxLength={1000}
              data-testid="rating-attempt"
              {...form.getInputProps('ratingStoreAttemp')}
            />
            <Textarea
              label={t('resolve.config.ratingStoreError')}
              description={t('resolve.config.ratingStoreErrorHint')}
              required
              autosize
              minRows={2}
              maxLength={1000}
              data-testid="rating-error"
              {...form.getInputProps('ratingStoreError')}
            />
            <NumberInput
              label={t('resolve.config.attempts')}
              description={t('resolve.config.attemptsHint')}
              min={1}
              max={10}
              allowDecimal={false}
              required
              w={220}
              data-testid="rating-attempts"
              {...form.getInputProps('ratingAttempts')}
            />
          </Stack>
        </Paper>
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending} disabled={config.isPending} data-testid="rating-save">
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
