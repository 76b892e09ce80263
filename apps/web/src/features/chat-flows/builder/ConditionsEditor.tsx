/**
 * A step's conditions, tried in order on the customer's answer (decisions §C): their type (keywords US, any answer R,
 * out of options O, automatic A), the words of a US condition, and the action with its target. "Go to step" picks the
 * next step in a select: the keyboard's way to draw an edge.
 */
import { Button, Fieldset, Group, Stack, TagsInput, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { CHAT_FLOW_ACTIONS, type ChatFlowCondition, type ChatFlowNodeAction } from '@conversa/shared';
import { useBuilder } from './builder.context';
import { moveItem, newId, withAction, type StepNode } from './builder.graph';
import { ActionTargetSelect, ItemButtons, OptionSelect } from './PanelFields';

const CONDITION_TYPES = ['US', 'R', 'O', 'A'] as const;
const ACTIONS = [0, 1, 2, 3, 4] as const;
const MAX_CONDITIONS = 50;
const MAX_ACTIONS = 5;

export function ConditionsEditor({ node }: { node: StepNode }) {
  const { t } = useTranslation();
  const { dispatch } = useBuilder();
  const change = (update: (list: ChatFlowCondition[]) => ChatFlowCondition[], coalesce?: string) =>
    dispatch({
      type: 'updateStep',
      nodeId: node.id,
      update: (n) => ({ ...n, conditions: update(n.conditions) }),
      coalesce,
    });
  const replace = (index: number, next: ChatFlowCondition, coalesce?: string) =>
    change((list) => list.map((item, i) => (i === index ? next : item)), coalesce);

  return (
    <Stack gap="xs">
      <Text fw={600} size="sm" component="h3">
        {t('flowBuilder.conditions.title')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('flowBuilder.conditions.help')}
      </Text>
      {node.conditions.map((condition, index) => {
        const item = t('flowBuilder.conditions.item', { n: index + 1 });
        return (
          <Fieldset key={condition.id} legend={item} p="xs" data-testid={`condition-${index + 1}`}>
            <Stack gap={6}>
              <OptionSelect
                label={t('flowBuilder.conditions.type', { item })}
                value={condition.type}
                options={CONDITION_TYPES.map((type) => ({
                  value: type,
                  label: t(`flowBuilder.conditionTypes.${type}`),
                }))}
                onChange={(type) => replace(index, { ...condition, type: (type ?? 'US') as ChatFlowCondition['type'] })}
              />
              {condition.type === 'US' ? (
                <TagsInput
                  label={t('flowBuilder.conditions.words', { item })}
                  description={t('flowBuilder.conditions.wordsHelp')}
                  value={condition.condition}
                  maxTags={50}
                  onChange={(words) => replace(index, { ...condition, condition: words.map((w) => w.slice(0, 200)) })}
                />
              ) : null}
              <OptionSelect
                label={t('flowBuilder.conditions.action', { item })}
                value={condition.action}
                options={ACTIONS.map((action) => ({
                  value: String(action),
                  label: t(`flowBuilder.actions.${action}`),
                }))}
                onChange={(action) =>
                  replace(index, withAction(condition, Number(action ?? 0) as ChatFlowCondition['action']))
                }
              />
              <ActionTargetSelect value={condition} suffix={item} onChange={(next) => replace(index, next)} />
              <Group justify="flex-end">
                <ItemButtons
                  name={item}
                  index={index}
                  count={node.conditions.length}
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
          disabled={node.conditions.length >= MAX_CONDITIONS}
          leftSection={<IconPlus size={14} aria-hidden />}
          onClick={() =>
            change((list) => [
              ...list,
              { id: newId(), type: 'US', condition: [], action: CHAT_FLOW_ACTIONS.step, nextStepId: null },
            ])
          }
        >
          {t('flowBuilder.conditions.add')}
        </Button>
      </Group>
    </Stack>
  );
}

/** Actions run after the interactions without waiting for an answer (a handover ends the flow). */
export function NodeActionsEditor({ node }: { node: StepNode }) {
  const { t } = useTranslation();
  const { dispatch } = useBuilder();
  const change = (update: (list: ChatFlowNodeAction[]) => ChatFlowNodeAction[]) =>
    dispatch({ type: 'updateStep', nodeId: node.id, update: (n) => ({ ...n, actions: update(n.actions) }) });
  const replace = (index: number, next: ChatFlowNodeAction) =>
    change((list) => list.map((item, i) => (i === index ? next : item)));

  return (
    <Stack gap="xs">
      <Text fw={600} size="sm" component="h3">
        {t('flowBuilder.nodeActions.title')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('flowBuilder.nodeActions.help')}
      </Text>
      {node.actions.map((action, index) => {
        const item = t('flowBuilder.nodeActions.item', { n: index + 1 });
        return (
          <Fieldset key={action.id} legend={item} p="xs" data-testid={`node-action-${index + 1}`}>
            <Stack gap={6}>
              <OptionSelect
                label={t('flowBuilder.nodeActions.action', { item })}
                value={action.action}
                options={ACTIONS.filter((a) => a !== 0).map((a) => ({
                  value: String(a),
                  label: t(`flowBuilder.actions.${a}`),
                }))}
                onChange={(value) =>
                  replace(index, {
                    ...action,
                    action: Number(value ?? 4) as ChatFlowNodeAction['action'],
                    queueId: null,
                    userIdDestination: null,
                    chatFlowId: null,
                  })
                }
              />
              <ActionTargetSelect value={action} suffix={item} onChange={(next) => replace(index, next)} />
              <Group justify="flex-end">
                <ItemButtons
                  name={item}
                  index={index}
                  count={node.actions.length}
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
          disabled={node.actions.length >= MAX_ACTIONS}
          leftSection={<IconPlus size={14} aria-hidden />}
          onClick={() => change((list) => [...list, { id: newId(), action: CHAT_FLOW_ACTIONS.queue, queueId: null }])}
        >
          {t('flowBuilder.nodeActions.add')}
        </Button>
      </Group>
    </Stack>
  );
}
