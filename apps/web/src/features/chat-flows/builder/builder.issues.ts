/**
 * What stops a flow from being saved: the shared rules (validateChatFlow, the server applies them too) and the
 * stored format's own limits (chatFlowGraphSchema: a media without its address, a delay out of range...), each tied
 * to its node where it has one, with its localized text.
 */
import { chatFlowGraphSchema, validateChatFlow, type ChatFlowIssue, type ChatFlowIssueCode } from '@conversa/shared';
import { isStep, type FlowGraph } from './builder.graph';
import { nodeName, type TFunction } from './builder.labels';

export interface BuilderIssue {
  code: ChatFlowIssueCode | 'invalidField';
  nodeId?: string;
  conditionId?: string;
}

export function collectIssues(graph: FlowGraph): BuilderIssue[] {
  const issues: BuilderIssue[] = [...validateChatFlow(graph)];
  const parsed = chatFlowGraphSchema.safeParse(graph);
  if (!parsed.success) {
    const seen = new Set<string>();
    for (const problem of parsed.error.issues) {
      const [list, index] = problem.path;
      const node = list === 'nodeList' && typeof index === 'number' ? graph.nodeList[index] : undefined;
      const key = node?.id ?? '';
      if (seen.has(key)) continue;
      seen.add(key);
      issues.push({ code: 'invalidField', nodeId: node?.id });
    }
  }
  return issues;
}

/** The nodes an issue points at, for the red borders. */
export const issueNodeIds = (issues: readonly BuilderIssue[]): Set<string> =>
  new Set(issues.flatMap((issue) => (issue.nodeId ? [issue.nodeId] : [])));

/** Which node the issue's button selects: its own, or the start for the start's problems. */
export function issueTarget(graph: FlowGraph, issue: BuilderIssue): string | undefined {
  if (issue.nodeId) return issue.nodeId;
  if (issue.code === 'startNotConnected') return graph.nodeList.find((n) => n.type === 'start')?.id;
  return undefined;
}

export function issueText(t: TFunction, graph: FlowGraph, issue: BuilderIssue | ChatFlowIssue): string {
  const node = issue.nodeId ? graph.nodeList.find((n) => n.id === issue.nodeId) : undefined;
  let item = '';
  if (isStep(node) && issue.conditionId) {
    const condition = node.conditions.findIndex((c) => c.id === issue.conditionId);
    const action = node.actions.findIndex((a) => a.id === issue.conditionId);
    if (condition >= 0) item = t('flowBuilder.conditions.item', { n: condition + 1 });
    else if (action >= 0) item = t('flowBuilder.nodeActions.item', { n: action + 1 });
  }
  return t(`flowBuilder.issues.${issue.code}`, { node: node ? nodeName(t, node) : '', item });
}
