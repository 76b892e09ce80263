/**
 * The canvas: xyflow nodes and edges derived from the flow JSON. The canvas keeps its own copies only for what the
 * library measures and moves (sizes, the position during a drag); every change that matters goes to the reducer:
 * a drag's end, a connection, a deletion (Delete/Backspace), a selection.
 */
import { useCallback, useMemo, useRef, useState, type Dispatch, type KeyboardEvent } from 'react';
import { ActionIcon, Group, Tooltip, useComputedColorScheme } from '@mantine/core';
import { IconMaximize, IconMinus, IconPlus } from '@tabler/icons-react';
import {
  Background,
  MiniMap,
  Panel,
  ReactFlow,
  useReactFlow,
  type Connection,
  type Edge,
  type EdgeChange,
  type NodeChange,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useTranslation } from 'react-i18next';
import { CHAT_FLOW_ACTIONS } from '@conversa/shared';
import { isStep, parsePosition, startNode, stepNodes, type FlowGraph } from './builder.graph';
import { conditionLabel, nodeAriaLabel } from './builder.labels';
import type { BuilderAction } from './builder.state';
import classes from './FlowBuilder.module.css';
import { nodeTypes, START_HANDLE, type BuilderNode } from './FlowNodes';

interface EdgeData extends Record<string, unknown> {
  source: string;
  sourceHandle: string;
}
type BuilderEdge = Edge<EdgeData>;

/** `label` names an edge for screen readers from its condition's id (the start's edge: its handle's id). */
export function deriveEdges(graph: FlowGraph, label: (conditionId: string) => string): BuilderEdge[] {
  const ids = new Set(graph.nodeList.map((n) => n.id));
  const edges: BuilderEdge[] = [];
  const start = startNode(graph);
  const first = start && graph.lineList.find((line) => line.from === start.id)?.to;
  if (start && first && ids.has(first)) {
    edges.push({
      id: `${start.id}->${first}`,
      source: start.id,
      sourceHandle: START_HANDLE,
      target: first,
      ariaLabel: label(START_HANDLE),
      data: { source: start.id, sourceHandle: START_HANDLE },
    });
  }
  for (const node of stepNodes(graph)) {
    for (const condition of node.conditions) {
      if (condition.action !== CHAT_FLOW_ACTIONS.step || !condition.nextStepId || !ids.has(condition.nextStepId)) {
        continue;
      }
      edges.push({
        id: `${node.id}:${condition.id}->${condition.nextStepId}`,
        source: node.id,
        sourceHandle: condition.id,
        target: condition.nextStepId,
        ariaLabel: label(condition.id),
        data: { source: node.id, sourceHandle: condition.id },
      });
    }
  }
  return edges;
}

export function FlowCanvas({
  graph,
  dispatch,
  selectedId,
  onSelect,
  onDeleteSteps,
  issueNodes,
}: {
  graph: FlowGraph;
  dispatch: Dispatch<BuilderAction>;
  selectedId: string | null;
  onSelect: (id: string | null) => void;
  /** Steps deleted on the canvas (Delete/Backspace): the builder deletes them and moves the focus. */
  onDeleteSteps: (ids: readonly string[]) => void;
  issueNodes: ReadonlySet<string>;
}) {
  const { t } = useTranslation();
  const colorScheme = useComputedColorScheme('light');
  const derivedNodes = useMemo(
    () =>
      graph.nodeList.map((node): BuilderNode => ({
        id: node.id,
        type: node.type,
        position: { x: parsePosition(node.left, 0), y: parsePosition(node.top, 0) },
        data: { node, hasIssues: issueNodes.has(node.id) },
        selected: node.id === selectedId,
        deletable: node.type === 'node',
        ariaLabel: nodeAriaLabel(t, node),
      })),
    [graph.nodeList, issueNodes, selectedId, t],
  );
  const derivedEdges = useMemo(() => {
    const conditionText = new Map<string, string>([[START_HANDLE, t('flowBuilder.types.start')]]);
    for (const node of stepNodes(graph)) {
      for (const c of node.conditions) {
        conditionText.set(c.id, `${nodeAriaLabel(t, node)}: ${conditionLabel(t, c)}`);
      }
    }
    return deriveEdges(graph, (id) => t('flowBuilder.canvas.edgeLabel', { condition: conditionText.get(id) ?? '' }));
  }, [graph, t]);

  // What xyflow measured: a node without `measured` would stay hidden until measured again.
  const [measured, setMeasured] = useState<ReadonlyMap<string, { width?: number; height?: number }>>(new Map());
  const [selectedEdge, setSelectedEdge] = useState<string | null>(null);
  const nodes = useMemo(
    () => derivedNodes.map((n) => (measured.has(n.id) ? { ...n, measured: measured.get(n.id) } : n)),
    [derivedNodes, measured],
  );
  const edges = useMemo(
    () => derivedEdges.map((e) => (e.id === selectedEdge ? { ...e, selected: true } : e)),
    [derivedEdges, selectedEdge],
  );

  const dragStart = useRef<FlowGraph | null>(null);
  const onNodeDragStart = useCallback(() => {
    dragStart.current = graph;
  }, [graph]);
  const onNodeDragStop = useCallback(() => {
    if (dragStart.current) dispatch({ type: 'commitMove', before: dragStart.current });
    dragStart.current = null;
  }, [dispatch]);

  // Removals go through onDelete (one history entry for nodes and edges together).
  const onNodesChange = useCallback(
    (changes: NodeChange<BuilderNode>[]) => {
      const sizes = changes.filter((c) => c.type === 'dimensions' && c.dimensions);
      if (sizes.length > 0) {
        setMeasured((previous) => {
          const next = new Map(previous);
          for (const c of sizes) if (c.type === 'dimensions' && c.dimensions) next.set(c.id, c.dimensions);
          return next;
        });
      }
      for (const change of changes) {
        if (change.type === 'select' && change.selected) {
          setSelectedEdge(null);
          onSelect(change.id);
        }
        if (change.type === 'position' && change.position) {
          // During a drag (its last change included) the node moves without history; onNodeDragStop records it.
          dispatch({
            type: 'move',
            nodeId: change.id,
            left: Math.round(change.position.x),
            top: Math.round(change.position.y),
            transient: Boolean(change.dragging) || dragStart.current !== null,
          });
        }
      }
    },
    [dispatch, onSelect],
  );
  const onEdgesChange = useCallback((changes: EdgeChange<BuilderEdge>[]) => {
    for (const change of changes) {
      if (change.type === 'select')
        setSelectedEdge((current) => (change.selected ? change.id : current === change.id ? null : current));
    }
  }, []);
  const onConnect = useCallback(
    (connection: Connection) =>
      dispatch({
        type: 'connect',
        source: connection.source,
        sourceHandle: connection.sourceHandle,
        target: connection.target,
      }),
    [dispatch],
  );
  // Delete/Backspace while the canvas has the focus (not the side panel's buttons): the selected step or link.
  const selectedStep = isStep(graph.nodeList.find((n) => n.id === selectedId)) ? selectedId : null;
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Delete' && event.key !== 'Backspace') return;
    const target = event.target as HTMLElement;
    if (target.closest('input, textarea, select, [contenteditable="true"]')) return;
    const edge = derivedEdges.find((e) => e.id === selectedEdge);
    if (edge?.data) {
      dispatch({ type: 'disconnect', ...edge.data });
      setSelectedEdge(null);
    } else if (selectedStep) {
      onDeleteSteps([selectedStep]);
    } else {
      return;
    }
    event.preventDefault();
  };
  const nodeList = graph.nodeList;
  const isValidConnection = useCallback(
    (connection: Connection | BuilderEdge) => isStep(nodeList.find((n) => n.id === connection.target)),
    [nodeList],
  );

  const ariaLabelConfig = useMemo(
    () => ({
      'node.a11yDescription.default': t('flowBuilder.canvas.a11yNode'),
      'node.a11yDescription.keyboardDisabled': t('flowBuilder.canvas.a11yNodeNoKeyboard'),
      'node.a11yDescription.ariaLiveMessage': ({ direction, x, y }: { direction: string; x: number; y: number }) =>
        t('flowBuilder.canvas.a11yMoved', { direction, x, y }),
      'edge.a11yDescription.default': t('flowBuilder.canvas.a11yEdge'),
      'controls.ariaLabel': t('flowBuilder.canvas.controls'),
      'controls.zoomIn.ariaLabel': t('flowBuilder.canvas.zoomIn'),
      'controls.zoomOut.ariaLabel': t('flowBuilder.canvas.zoomOut'),
      'controls.fitView.ariaLabel': t('flowBuilder.canvas.fitView'),
      'controls.interactive.ariaLabel': t('flowBuilder.canvas.interactive'),
      'minimap.ariaLabel': t('flowBuilder.canvas.minimap'),
      'handle.ariaLabel': t('flowBuilder.canvas.handle'),
    }),
    [t],
  );

  return (
    <section
      className={classes.canvas}
      aria-label={t('flowBuilder.canvas.label')}
      data-testid="flow-canvas"
      onKeyDown={onKeyDown}
    >
      <ReactFlow<BuilderNode, BuilderEdge>
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onNodeDragStart={onNodeDragStart}
        onNodeDragStop={onNodeDragStop}
        onConnect={onConnect}
        onPaneClick={() => {
          setSelectedEdge(null);
          onSelect(null);
        }}
        isValidConnection={isValidConnection}
        deleteKeyCode={null}
        multiSelectionKeyCode={null}
        selectionKeyCode={null}
        ariaLabelConfig={ariaLabelConfig}
        colorMode={colorScheme}
        fitView
        fitViewOptions={{ maxZoom: 1 }}
        minZoom={0.2}
      >
        <Background />
        <ZoomControls />
        <MiniMap pannable zoomable />
      </ReactFlow>
    </section>
  );
}

/** Zoom buttons (Mantine's, labelled in the current language) instead of the library's unnamed panel. */
function ZoomControls() {
  const { t } = useTranslation();
  const { zoomIn, zoomOut, fitView } = useReactFlow();
  const buttons = [
    { label: t('flowBuilder.canvas.zoomIn'), icon: IconPlus, run: () => void zoomIn({ duration: 200 }) },
    { label: t('flowBuilder.canvas.zoomOut'), icon: IconMinus, run: () => void zoomOut({ duration: 200 }) },
    {
      label: t('flowBuilder.canvas.fitView'),
      icon: IconMaximize,
      run: () => void fitView({ duration: 200, maxZoom: 1 }),
    },
  ];
  return (
    <Panel position="bottom-left">
      <Group gap={4} role="group" aria-label={t('flowBuilder.canvas.controls')}>
        {buttons.map(({ label, icon: Icon, run }) => (
          <Tooltip key={label} label={label}>
            <ActionIcon variant="default" aria-label={label} onClick={run}>
              <Icon size={16} aria-hidden />
            </ActionIcon>
          </Tooltip>
        ))}
      </Group>
    </Panel>
  );
}
