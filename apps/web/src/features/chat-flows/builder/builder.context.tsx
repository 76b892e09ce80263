/**
 * What every panel of the builder reads: the dispatch of the reducer and the options of the target selects (steps,
 * queues, users, other flows). Provided once by the page.
 */
import { createContext, useContext, useMemo, type Dispatch, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useChatFlowList } from '../api/chat-flows';
import { isStep, type FlowGraph } from './builder.graph';
import { nodeName } from './builder.labels';
import type { BuilderAction } from './builder.state';
import { useQueueOptions, useUserOptions, type Option } from './builder-api';

export interface BuilderContextValue {
  dispatch: Dispatch<BuilderAction>;
  steps: Option[];
  queues: Option[];
  users: Option[];
  flows: Option[];
}

const BuilderContext = createContext<BuilderContextValue | null>(null);

export function BuilderProvider({
  graph,
  flowId,
  dispatch,
  children,
}: {
  graph: FlowGraph;
  flowId: number;
  dispatch: Dispatch<BuilderAction>;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const queues = useQueueOptions();
  const users = useUserOptions();
  const flowList = useChatFlowList();
  const nodeList = graph.nodeList;
  const steps = useMemo(
    () => nodeList.filter(isStep).map((n): Option => ({ value: n.id, label: nodeName(t, n) })),
    [nodeList, t],
  );
  const flows = useMemo(
    () =>
      (flowList.data ?? []).filter((f) => f.id !== flowId).map((f): Option => ({ value: String(f.id), label: f.name })),
    [flowList.data, flowId],
  );
  const value = useMemo(() => ({ dispatch, steps, queues, users, flows }), [dispatch, steps, queues, users, flows]);
  return <BuilderContext.Provider value={value}>{children}</BuilderContext.Provider>;
}

export function useBuilder(): BuilderContextValue {
  const value = useContext(BuilderContext);
  if (!value) throw new Error('useBuilder outside BuilderProvider');
  return value;
}
