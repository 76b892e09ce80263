/**
 * The side panel editing the selected node: a step (name, interactions, conditions, actions, delete), the start (its
 * first step) or the configurations.
 */
import { forwardRef } from 'react';
import { Button, Divider, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { startTarget, type ChatFlowNode } from '@conversa/shared';
import { useBuilder } from './builder.context';
import type { FlowGraph, StepNode } from './builder.graph';
import { ConditionsEditor, NodeActionsEditor } from './ConditionsEditor';
import { ConfigurationsPanel } from './ConfigurationsPanel';
import { InteractionsEditor } from './InteractionsEditor';
import { OptionSelect } from './PanelFields';

export const STEP_NAME_INPUT_ID = 'flow-step-name';

export function NodePanel({
  graph,
  node,
  onDeleteStep,
}: {
  graph: FlowGraph;
  node: ChatFlowNode | undefined;
  onDeleteStep: (id: string) => void;
}) {
  const { t } = useTranslation();
  if (!node) {
    return (
      <Text size="sm" c="dimmed">
        {t('flowBuilder.panel.nothingSelected')}
      </Text>
    );
  }
  if (node.type === 'start') return <StartPanel graph={graph} />;
  if (node.type === 'configurations') {
    return (
      <Stack gap="sm">
        <PanelTitle>{t('flowBuilder.types.configurations')}</PanelTitle>
        <ConfigurationsPanel configurations={node.configurations} />
      </Stack>
    );
  }
  return <StepPanel node={node} onDelete={() => onDeleteStep(node.id)} />;
}

const PanelTitle = forwardRef<HTMLHeadingElement, { children: React.ReactNode }>(function PanelTitle(
  { children },
  ref,
) {
  return (
    <Title order={2} size="h4" ref={ref} tabIndex={-1} id="flow-panel-title">
      {children}
    </Title>
  );
});

function StartPanel({ graph }: { graph: FlowGraph }) {
  const { t } = useTranslation();
  const { dispatch, steps } = useBuilder();
  return (
    <Stack gap="sm">
      <PanelTitle>{t('flowBuilder.types.start')}</PanelTitle>
      <OptionSelect
        label={t('flowBuilder.panel.firstStep')}
        description={t('flowBuilder.panel.firstStepHelp')}
        value={startTarget(graph)}
        options={steps}
        placeholder={t('flowBuilder.fields.chooseStep')}
        onChange={(target) => dispatch({ type: 'setStartTarget', target })}
      />
    </Stack>
  );
}

function StepPanel({ node, onDelete }: { node: StepNode; onDelete: () => void }) {
  const { t } = useTranslation();
  const { dispatch } = useBuilder();
  return (
    <Stack gap="sm">
      <PanelTitle>{t('flowBuilder.panel.stepTitle', { name: node.name || t('flowBuilder.unnamedStep') })}</PanelTitle>
      <TextInput
        id={STEP_NAME_INPUT_ID}
        label={t('flowBuilder.panel.stepName')}
        value={node.name}
        maxLength={200}
        onChange={(event) => {
          const name = event.currentTarget.value;
          dispatch({
            type: 'updateStep',
            nodeId: node.id,
            update: (n) => ({ ...n, name }),
            coalesce: `${node.id}:name`,
          });
        }}
      />
      <Divider />
      <InteractionsEditor node={node} />
      <Divider />
      <ConditionsEditor node={node} />
      <Divider />
      <NodeActionsEditor node={node} />
      <Divider />
      <Button color="red" variant="light" leftSection={<IconTrash size={16} aria-hidden />} onClick={onDelete}>
        {t('flowBuilder.panel.deleteStep')}
      </Button>
    </Stack>
  );
}
