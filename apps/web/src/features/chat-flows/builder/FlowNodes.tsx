/**
 * The canvas' node types: the start (one source handle), the configurations card (no handles) and a step (a target
 * handle on the left, one source handle per "go to step" condition, labelled with its words or its type).
 */
import { Badge, Box, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconPlayerPlay, IconSettings } from '@tabler/icons-react';
import { useEffect } from 'react';
import { Handle, Position, useUpdateNodeInternals, type Node, type NodeProps } from '@xyflow/react';
import { useTranslation } from 'react-i18next';
import { CHAT_FLOW_ACTIONS, type ChatFlowNode } from '@conversa/shared';
import type { StepNode } from './builder.graph';
import { conditionLabel } from './builder.labels';
import classes from './FlowBuilder.module.css';

export interface BuilderNodeData extends Record<string, unknown> {
  node: ChatFlowNode;
  hasIssues: boolean;
}
export type BuilderNode = Node<BuilderNodeData>;

/** The start node's one source handle. */
export const START_HANDLE = 'start';

function IssueMark() {
  const { t } = useTranslation();
  return (
    <IconAlertTriangle
      size={16}
      role="img"
      aria-label={t('flowBuilder.canvas.hasIssues')}
      className={classes.issueIcon}
    />
  );
}

function Card({ data, selected, children }: { data: BuilderNodeData; selected: boolean; children: React.ReactNode }) {
  return (
    <Box
      className={classes.node}
      data-selected={selected || undefined}
      data-issues={data.hasIssues || undefined}
      data-testid={`flow-node-${data.node.id}`}
    >
      {children}
    </Box>
  );
}

export function StartNodeView({ data, selected }: NodeProps<BuilderNode>) {
  const { t } = useTranslation();
  return (
    <Card data={data} selected={selected}>
      <Group gap={6} wrap="nowrap" pr="sm">
        <IconPlayerPlay size={16} aria-hidden />
        <Text fw={600} size="sm">
          {data.node.name || t('flowBuilder.types.start')}
        </Text>
        {data.hasIssues ? <IssueMark /> : null}
      </Group>
      <Handle type="source" id={START_HANDLE} position={Position.Right} title={t('flowBuilder.canvas.startHandle')} />
    </Card>
  );
}

export function ConfigurationsNodeView({ data, selected }: NodeProps<BuilderNode>) {
  const { t } = useTranslation();
  return (
    <Card data={data} selected={selected}>
      <Group gap={6} wrap="nowrap">
        <IconSettings size={16} aria-hidden />
        <Text fw={600} size="sm">
          {t('flowBuilder.types.configurations')}
        </Text>
        {data.hasIssues ? <IssueMark /> : null}
      </Group>
    </Card>
  );
}

function firstMessage(node: StepNode): string {
  for (const interaction of node.interactions) {
    if (interaction.type === 'MessageField' && interaction.data.message.trim()) return interaction.data.message;
  }
  return '';
}

export function StepNodeView({ id, data, selected }: NodeProps<BuilderNode>) {
  const { t } = useTranslation();
  const node = data.node as StepNode;
  const preview = firstMessage(node);
  // xyflow reads a node's handles when it measures it: a condition's handle that comes or goes must be read again.
  const updateNodeInternals = useUpdateNodeInternals();
  const handles = node.conditions
    .filter((c) => c.action === CHAT_FLOW_ACTIONS.step)
    .map((c) => c.id)
    .join(' ');
  useEffect(() => updateNodeInternals(id), [id, handles, updateNodeInternals]);
  return (
    <Card data={data} selected={selected}>
      <Handle type="target" position={Position.Left} title={t('flowBuilder.canvas.targetHandle')} />
      <Stack gap={4} className={classes.stepBody}>
        <Group gap={6} wrap="nowrap" justify="space-between">
          <Text fw={600} size="sm" lineClamp={1}>
            {node.name || t('flowBuilder.unnamedStep')}
          </Text>
          {data.hasIssues ? <IssueMark /> : null}
        </Group>
        {preview ? (
          <Text size="xs" c="dimmed" lineClamp={2}>
            {preview}
          </Text>
        ) : null}
        <Group gap={4}>
          <Badge size="xs" variant="light" color="gray">
            {t('flowBuilder.canvas.interactions', { n: node.interactions.length })}
          </Badge>
          {node.actions.length > 0 ? (
            <Badge size="xs" variant="light" color="gray">
              {t('flowBuilder.canvas.actions', { n: node.actions.length })}
            </Badge>
          ) : null}
        </Group>
        {node.conditions.map((condition) => (
          <Box key={condition.id} className={classes.conditionRow}>
            <Text size="xs" lineClamp={1}>
              {conditionLabel(t, condition)}
              {condition.action === CHAT_FLOW_ACTIONS.step
                ? null
                : ` → ${t(`flowBuilder.actions.${condition.action}`)}`}
            </Text>
            {condition.action === CHAT_FLOW_ACTIONS.step ? (
              <Handle
                type="source"
                id={condition.id}
                position={Position.Right}
                title={t('flowBuilder.canvas.conditionHandle', { label: conditionLabel(t, condition) })}
              />
            ) : null}
          </Box>
        ))}
      </Stack>
    </Card>
  );
}

export const nodeTypes = { start: StartNodeView, configurations: ConfigurationsNodeView, node: StepNodeView };
