/**
 * Before auto-close is switched on or its time changes while on (issue 23): the server counts what the new setting
 * would close (the job's own rule) and the admin confirms. Tickets waiting for the team are never closed.
 */
import { List, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { TFunction } from 'i18next';
import { describeError } from '../../../lib/api';
import { notifyError } from '../../../lib/notify';
import { fetchAutoClosePreview, type AutoClosePreview } from '../api/auto-close-preview';

export function AutoClosePreviewText({ preview, t }: { preview: AutoClosePreview; t: TFunction }) {
  const time = t(`schedules.autoCloseTimes.${preview.minutes}`);
  return (
    <Stack gap="xs" data-testid="auto-close-preview">
      <List spacing="xs" size="sm">
        <List.Item>
          <Text size="sm" fw={600} span>
            {t('settings.autoCloseConfirm.closeNow', { count: preview.closeNow })}
          </Text>{' '}
          <Text size="sm" span>
            {preview.enabled
              ? t('settings.autoCloseConfirm.closeNowHint', { time })
              : t('settings.autoCloseConfirm.fromNow')}
          </Text>
        </List.Item>
        <List.Item>
          <Text size="sm" fw={600} span>
            {t('settings.autoCloseConfirm.awaiting', { count: preview.awaitingCustomer })}
          </Text>{' '}
          <Text size="sm" span>
            {t('settings.autoCloseConfirm.awaitingHint', { time })}
          </Text>
        </List.Item>
      </List>
      <Text size="sm">{t('settings.autoCloseConfirm.neverWaiting')}</Text>
    </Stack>
  );
}

/** Asks the server, then the admin; `onConfirm` saves. A failed preview saves nothing and says why. */
export async function confirmAutoClose(t: TFunction, minutes: string, onConfirm: () => void): Promise<void> {
  let preview: AutoClosePreview;
  try {
    preview = await fetchAutoClosePreview(minutes);
  } catch (error) {
    notifyError(describeError(error));
    return;
  }
  modals.openConfirmModal({
    title: preview.enabled ? t('settings.autoCloseConfirm.titleTime') : t('settings.autoCloseConfirm.titleOn'),
    children: <AutoClosePreviewText preview={preview} t={t} />,
    labels: { confirm: t('settings.autoCloseConfirm.confirm'), cancel: t('common.cancel') },
    confirmProps: { 'data-testid': 'auto-close-confirm' } as Record<string, unknown>,
    cancelProps: { 'data-testid': 'auto-close-cancel' } as Record<string, unknown>,
    onConfirm,
  });
}
