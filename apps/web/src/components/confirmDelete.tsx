import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { ReactNode } from 'react';
import { t } from '../lib/i18n';

export interface ConfirmDeleteOptions {
  title: string;
  /** The body, shown as small text. */
  message: ReactNode;
  onConfirm: () => void;
  /** The red button's label; `common.delete` unless told. */
  confirmLabel?: string;
  /** The other button's label; `common.cancel` unless told. */
  cancelLabel?: string;
}

/**
 * The destructive confirmation every list page opens before deleting a row: a red `confirm-delete` button and a
 * `confirm-cancel` one (the web tests and e2e specs click them by those ids).
 */
export function confirmDelete({ title, message, onConfirm, confirmLabel, cancelLabel }: ConfirmDeleteOptions) {
  return modals.openConfirmModal({
    title,
    children: <Text size="sm">{message}</Text>,
    labels: { confirm: confirmLabel ?? t('common.delete'), cancel: cancelLabel ?? t('common.cancel') },
    confirmProps: { color: 'red', 'data-testid': 'confirm-delete' } as Record<string, unknown>,
    cancelProps: { 'data-testid': 'confirm-cancel' } as Record<string, unknown>,
    onConfirm,
  });
}
