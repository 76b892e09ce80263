import { ActionIcon, Group, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** One more icon button in a row, shown before edit and delete. */
export interface RowAction {
  /** The tooltip. */
  label: string;
  ariaLabel: string;
  icon: ReactNode;
  onClick: () => void;
  /** The test id's middle part: `${testIdPrefix}-${testId}-${id}`. */
  testId: string;
  disabled?: boolean;
}

interface RowActionsProps {
  /** The row's id, the test ids' last part. */
  id: number | string;
  /** The test ids' first part: `${testIdPrefix}-edit-${id}`, `${testIdPrefix}-delete-${id}`. */
  testIdPrefix: string;
  editLabel: string;
  onEdit: () => void;
  deleteLabel: string;
  onDelete: () => void;
  /** The delete button's tooltip; `common.delete` unless told. */
  deleteTooltip?: string;
  deleteDisabled?: boolean;
  /** Shown before edit and delete. */
  extra?: readonly RowAction[];
}

/** The edit and delete icon buttons (with tooltips) at the end of a list page's row. */
export function RowActions({
  id,
  testIdPrefix,
  editLabel,
  onEdit,
  deleteLabel,
  onDelete,
  deleteTooltip,
  deleteDisabled,
  extra = [],
}: RowActionsProps) {
  const { t } = useTranslation();
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      {extra.map((action) => (
        <Tooltip key={action.testId} label={action.label}>
          <ActionIcon
            variant="subtle"
            aria-label={action.ariaLabel}
            disabled={action.disabled}
            onClick={action.onClick}
            data-testid={`${testIdPrefix}-${action.testId}-${id}`}
          >
            {action.icon}
          </ActionIcon>
        </Tooltip>
      ))}
      <Tooltip label={t('common.edit')}>
        <ActionIcon variant="subtle" aria-label={editLabel} onClick={onEdit} data-testid={`${testIdPrefix}-edit-${id}`}>
          <IconPencil size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={deleteTooltip ?? t('common.delete')}>
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={deleteLabel}
          disabled={deleteDisabled}
          onClick={onDelete}
          data-testid={`${testIdPrefix}-delete-${id}`}
        >
          <IconTrash size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
