/**
 * Small controls the panels share: a native select with an empty choice (keyboard- and screen-reader-friendly, and
 * what the e2e test picks by label), the target of an action (step, queue, user, flow) and a destination (queue or
 * user) of the configurations.
 */
import { ActionIcon, Group, NativeSelect, Tooltip } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { CHAT_FLOW_ACTIONS, CHAT_FLOW_DESTINY_TYPES } from '@conversa/shared';
import { useBuilder } from './builder.context';
import type { Option } from './builder-api';

export function OptionSelect({
  label,
  value,
  options,
  placeholder,
  onChange,
  description,
  error,
}: {
  label: string;
  value: string | number | null | undefined;
  options: Option[];
  /** The empty choice's text; absent: no empty choice. */
  placeholder?: string;
  onChange: (value: string | null) => void;
  description?: string;
  error?: string;
}) {
  const data = placeholder === undefined ? options : [{ value: '', label: placeholder }, ...options];
  return (
    <NativeSelect
      label={label}
      description={description}
      error={error}
      value={value === null || value === undefined ? '' : String(value)}
      data={data}
      onChange={(event) => onChange(event.currentTarget.value || null)}
    />
  );
}

const toId = (value: string | null) => (value ? Number(value) : null);

export interface ActionTarget {
  action: number;
  nextStepId?: string | null;
  queueId?: number | null;
  userIdDestination?: number | null;
  chatFlowId?: number | null;
}

/** The select of what an action leads to; `suffix` tells the labels of one condition or action from another. */
export function ActionTargetSelect<T extends ActionTarget>({
  value,
  suffix,
  onChange,
}: {
  value: T;
  suffix: string;
  onChange: (next: T) => void;
}) {
  const { t } = useTranslation();
  const { steps, queues, users, flows } = useBuilder();
  switch (value.action) {
    case CHAT_FLOW_ACTIONS.step:
      return (
        <OptionSelect
          label={t('flowBuilder.fields.nextStep', { item: suffix })}
          value={value.nextStepId}
          options={steps}
          placeholder={t('flowBuilder.fields.chooseStep')}
          onChange={(nextStepId) => onChange({ ...value, nextStepId })}
        />
      );
    case CHAT_FLOW_ACTIONS.queue:
      return (
        <OptionSelect
          label={t('flowBuilder.fields.queue', { item: suffix })}
          value={value.queueId}
          options={queues}
          placeholder={t('flowBuilder.fields.chooseQueue')}
          onChange={(id) => onChange({ ...value, queueId: toId(id) })}
        />
      );
    case CHAT_FLOW_ACTIONS.user:
      return (
        <OptionSelect
          label={t('flowBuilder.fields.user', { item: suffix })}
          value={value.userIdDestination}
          options={users}
          placeholder={t('flowBuilder.fields.chooseUser')}
          onChange={(id) => onChange({ ...value, userIdDestination: toId(id) })}
        />
      );
    case CHAT_FLOW_ACTIONS.flow:
      return (
        <OptionSelect
          label={t('flowBuilder.fields.flow', { item: suffix })}
          value={value.chatFlowId}
          options={flows}
          placeholder={t('flowBuilder.fields.chooseFlow')}
          onChange={(id) => onChange({ ...value, chatFlowId: toId(id) })}
        />
      );
    default:
      return null;
  }
}

export interface Destination {
  type: 1 | 2;
  destiny: number | null;
}

/** A destination of the configurations: a queue or a user, then which one. */
export function DestinationFields({
  label,
  value,
  onChange,
}: {
  label: string;
  value: Destination;
  onChange: (next: Destination) => void;
}) {
  const { t } = useTranslation();
  const { queues, users } = useBuilder();
  const isQueue = value.type === CHAT_FLOW_DESTINY_TYPES.queue;
  return (
    <Group grow align="flex-start" gap="xs">
      <OptionSelect
        label={t('flowBuilder.config.destinationType', { item: label })}
        value={value.type}
        options={[
          { value: '1', label: t('flowBuilder.config.toQueue') },
          { value: '2', label: t('flowBuilder.config.toUser') },
        ]}
        onChange={(type) => onChange({ type: type === '2' ? 2 : 1, destiny: null })}
      />
      <OptionSelect
        label={t('flowBuilder.config.destination', { item: label })}
        value={value.destiny}
        options={isQueue ? queues : users}
        placeholder={isQueue ? t('flowBuilder.fields.chooseQueue') : t('flowBuilder.fields.chooseUser')}
        onChange={(id) => onChange({ ...value, destiny: toId(id) })}
      />
    </Group>
  );
}

/** Move up, move down and delete buttons of one item of a list; `name` says which item (for screen readers). */
export function ItemButtons({
  name,
  index,
  count,
  onMove,
  onDelete,
}: {
  name: string;
  index: number;
  count: number;
  onMove: (delta: -1 | 1) => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const up = t('flowBuilder.fields.moveUp', { item: name });
  const down = t('flowBuilder.fields.moveDown', { item: name });
  const remove = t('flowBuilder.fields.remove', { item: name });
  return (
    <Group gap={2} wrap="nowrap">
      <Tooltip label={up}>
        <ActionIcon variant="subtle" color="gray" aria-label={up} disabled={index === 0} onClick={() => onMove(-1)}>
          <IconArrowUp size={16} aria-hidden />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={down}>
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={down}
          disabled={index === count - 1}
          onClick={() => onMove(1)}
        >
          <IconArrowDown size={16} aria-hidden />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={remove}>
        <ActionIcon variant="subtle" color="red" aria-label={remove} onClick={onDelete}>
          <IconTrash size={16} aria-hidden />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
