/**
 * The side area's keyboard path through the flow: "Etapas", one button per node that selects it (and centres it on
 * the canvas); and the issues panel, one button per issue that does the same for the node it names.
 */
import { forwardRef } from 'react';
import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { FlowGraph } from './builder.graph';
import { issueTarget, issueText, type BuilderIssue } from './builder.issues';
import { nodeName } from './builder.labels';
import classes from './FlowBuilder.module.css';

export const stepButtonId = (nodeId: string) => `flow-step-button-${nodeId}`;

export function StepsList({
  graph,
  selectedId,
  issueNodes,
  onSelect,
}: {
  graph: FlowGraph;
  selectedId: string | null;
  issueNodes: ReadonlySet<string>;
  onSelect: (id: string) => void;
}) {
  const { t } = useTranslation();
  // The start and the configurations first, then the steps in their stored order.
  const ordered = [
    ...graph.nodeList.filter((n) => n.type === 'start'),
    ...graph.nodeList.filter((n) => n.type === 'configurations'),
    ...graph.nodeList.filter((n) => n.type === 'node'),
  ];
  return (
    <nav aria-labelledby="flow-steps-title">
      <Title order={2} size="h5" id="flow-steps-title" mb={4}>
        {t('flowBuilder.steps.title')}
      </Title>
      <Stack gap={2} component="ul" className={classes.plainList}>
        {ordered.map((node) => (
          <Group component="li" key={node.id} gap={4} wrap="nowrap">
            <Button
              id={stepButtonId(node.id)}
              variant={node.id === selectedId ? 'light' : 'subtle'}
              color={node.id === selectedId ? undefined : 'gray'}
              size="compact-sm"
              justify="flex-start"
              fullWidth
              aria-current={node.id === selectedId ? 'true' : undefined}
              onClick={() => onSelect(node.id)}
              styles={{ label: { color: 'var(--mantine-color-text)' } }}
            >
              {nodeName(t, node)}
            </Button>
            {issueNodes.has(node.id) ? (
              <IconAlertTriangle
                size={16}
                role="img"
                aria-label={t('flowBuilder.canvas.hasIssues')}
                className={classes.issueIcon}
              />
            ) : null}
          </Group>
        ))}
      </Stack>
    </nav>
  );
}

export const IssuesPanel = forwardRef<
  HTMLHeadingElement,
  {
    graph: FlowGraph;
    validated: boolean;
    issues: readonly BuilderIssue[];
    serverError: string | null;
    onSelect: (id: string) => void;
  }
>(function IssuesPanel({ graph, validated, issues, serverError, onSelect }, ref) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="flow-issues-title" data-testid="flow-issues">
      <Title order={2} size="h5" id="flow-issues-title" ref={ref} tabIndex={-1} mb={4}>
        {t('flowBuilder.issues.title')}
      </Title>
      {serverError ? (
        <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} mb="xs" role="alert">
          {serverError}
        </Alert>
      ) : null}
      {!validated ? (
        <Text size="sm" c="dimmed">
          {t('flowBuilder.issues.notValidated')}
        </Text>
      ) : issues.length === 0 ? (
        <Group gap={6}>
          <IconCircleCheck size={16} aria-hidden color="var(--mantine-color-teal-8)" />
          <Text size="sm">{t('flowBuilder.issues.none')}</Text>
        </Group>
      ) : (
        <Stack gap={2} component="ul" className={classes.plainList} aria-live="polite">
          {issues.map((issue, index) => {
            const text = issueText(t, graph, issue);
            const target = issueTarget(graph, issue);
            return (
              <li key={`${issue.code}-${issue.nodeId ?? ''}-${issue.conditionId ?? ''}-${index}`}>
                {target ? (
                  <Button
                    variant="subtle"
                    color="red"
                    size="compact-sm"
                    justify="flex-start"
                    fullWidth
                    leftSection={<IconAlertTriangle size={14} aria-hidden />}
                    onClick={() => onSelect(target)}
                    styles={{ label: { whiteSpace: 'normal', textAlign: 'start' }, root: { height: 'auto' } }}
                  >
                    {text}
                  </Button>
                ) : (
                  <Group gap={6} wrap="nowrap">
                    <IconAlertTriangle size={14} aria-hidden className={classes.issueIcon} />
                    <Text size="sm" c="red.8">
                      {text}
                    </Text>
                  </Group>
                )}
              </li>
            );
          })}
        </Stack>
      )}
    </section>
  );
});
