/**
 * A step's conditions, tried in order on the customer's answer (decisions §C): their type (keywords US, any answer R,
 * out of options O, automatic A), the words of a US condition, and the action with its target. "Go to step" picks the
 * next step in a select: the keyboard's way to draw an edge.
 */
import { Button, Fieldset, Group, Stack, TagsInput, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CHAT_FLOW_ACTIONS, type ChatFlowCondition, type ChatFlowNodeAction } from '@conversa/shared';
import { useBuilder } from './builder.context';
import { moveItem, newId, withAction, type StepNode } from './builder.graph';
import { ActionTargetSelect, ItemButtons, OptionSelect } from './PanelFields';

const CONDITION_TYPES = ['US', 'R', 'O', 'A'] as const;
const ACTIONS = [0, 1, 2, 3, 4] as const;
const MAX_CONDITIONS = 50;
const MAX_ACTIONS = 5;

/**
 * An ordered list of a step's items (its conditions, its actions): a fieldset per item with its fields, move and
 * delete buttons, and an add button up to `max` items.
 */
function StepItemList<T extends { id: string }>(props: {
  title: string;
  help: string;
  items: T[];
  /** The visible name of item `n` (1-based), also the suffix of its fields' labels. */
  itemName: (n: number) => string;
  testId: (n: number) => string;
  max: number;
  addLabel: string;
  newItem: () => T;
  change: (update: (list: T[]) => T[]) => void;
  fields: (item: T, name: string, replace: (next: T) => void) => ReactNode;
}) {
  const { items, change } = props;
  const replace = (index: number) => (next: T) => change((list) => list.map((item, i) => (i === index ? next : item)));
  return (
    <Stack gap="xs">
      <Text fw={600} size="sm" component="h3">
        {props.title}
      </Text>
      <Text size="xs" c="dimmed">
        {props.help}
      </Text>
      {items.map((item, index) => {
        const name = props.itemName(index + 1);
        return (
          <Fieldset key={item.id} legend={name} p="xs" data-testid={props.testId(index + 1)}>
            <Stack gap={6}>
              {props.fields(item, name, replace(index))}
              <Group justify="flex-end">
                <ItemButtons
                  name={name}
                  index={index}
                  count={items.length}
                  onMove={(delta) => change((list) => moveItem(list, index, delta))}
                  onDelete={() => change((list) => list.filter((_, i) => i !== index))}
                />
              </Group>
            </Stack>
          </Fieldset>
        );
      })}
      <Group>
        <Button
          size="xs"
          variant="light"
          disabled={items.length >= props.max}
          leftSection={<IconPlus size={14} aria-hidden />}
          onClick={() => change((list) => [...list, props.newItem()])}
        >
          {props.addLabel}
        </Button>
      </Group>
    </Stack>
  );
}

export function ConditionsEditor({ node }: { node: StepNode }) {
  const { t } = useTranslation();
  const { dispatch } = useBuilder();
  const change = (update: (list: ChatFlowCondition[]) => ChatFlowCondition[]) =>
    dispatch({ type: 'updateStep', nodeId: node.id, update: (n) => ({ ...n, conditions: update(n.conditions) }) });

  return (
    <StepItemList
      title={t('flowBuilder.conditions.title')}
      help={t('flowBuilder.conditions.help')}
      items={node.conditions}
      itemName={(n) => t('flowBuilder.conditions.item', { n })}
      testId={(n) => `condition-${n}`}
      max={MAX_CONDITIONS}
      addLabel={t('flowBuilder.conditions.add')}
      newItem={(): ChatFlowCondition => ({
        id: newId(),
        type: 'US',
        condition: [],
        action: CHAT_FLOW_ACTIONS.step,
        nextStepId: null,
      })}
      change={change}
      fields={(condition, item, replace) => (
        <>
          <OptionSelect
            label={t('flowBuilder.conditions.type', { item })}
            value={condition.type}
            options={CONDITION_TYPES.map((type) => ({ value: type, label: t(`flowBuilder.conditionTypes.${type}`) }))}
            onChange={(type) => replace({ ...condition, type: (type ?? 'US') as ChatFlowCondition['type'] })}
          />
          {condition.type === 'US' ? (
            <TagsInput
              label={t('flowBuilder.conditions.words', { item })}
              description={t('flowBuilder.conditions.wordsHelp')}
              value={condition.condition}
              maxTags={50}
              onChange={(words) => replace({ ...condition, condition: words.map((w) => w.slice(0, 200)) })}
            />
          ) : null}
          <OptionSelect
            label={t('flowBuilder.conditions.action', { item })}
            value={condition.action}
            options={ACTIONS.map((action) => ({ value: String(action), label: t(`flowBuilder.actions.${action}`) }))}
            onChange={(action) => replace(withAction(condition, Number(action ?? 0) as ChatFlowCondition['action']))}
          />
          <ActionTargetSelect value={condition} suffix={item} onChange={replace} />
        </>
      )}
    />
  );
}

/** Actions run after the interactions without waiting for an answer (a handover ends the flow). */
export function NodeActionsEditor({ node }: { node: StepNode }) {
  const { t } = useTranslation();
  const { dispatch } = useBuilder();
  const change = (update: (list: ChatFlowNodeAction[]) => ChatFlowNodeAction[]) =>
    dispatch({ type: 'updateStep', nodeId: node.id, update: (n) => ({ ...n, actions: update(n.actions) }) });

  return (
    <StepItemList
      title={t('flowBuilder.nodeActions.title')}
      help={t('flowBuilder.nodeActions.help')}
      items={node.actions}
      itemName={(n) => t('flowBuilder.nodeActions.item', { n })}
      testId={(n) => `node-action-${n}`}
      max={MAX_ACTIONS}
      addLabel={t('flowBuilder.nodeActions.add')}
      newItem={() => ({ id: newId(), action: CHAT_FLOW_ACTIONS.queue, queueId: null })}
      change={change}
      fields={(action, item, replace) => (
        <>
          <OptionSelect
            label={t('flowBuilder.nodeActions.action', { item })}
            value={action.action}
            options={ACTIONS.filter((a) => a !== 0).map((a) => ({
              value: String(a),
              label: t(`flowBuilder.actions.${a}`),
            }))}
            onChange={(value) =>
              replace({
                ...action,
                action: Number(value ?? 4) as ChatFlowNodeAction['action'],
                queueId: null,
                userIdDestination: null,
                chatFlowId: null,
              })
            }
          />
          <ActionTargetSelect value={action} suffix={item} onChange={replace} />
        </>
      )}
    />
  );
}
