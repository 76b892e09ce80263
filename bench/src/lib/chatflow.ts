/**
 * ingestion-flow: the ingestion scenario with a chat flow on every new ticket. The flow is the tenant's default
 * (`botTicketActive`): a welcome step that asks a question and waits, so each new conversation costs the engine's
 * job, the welcome's send job and the timer job; existing tickets are not in a flow and go the plain way.
 */
import { defaultChatFlow, type ChatFlowDto } from '@conversa/shared';
import { api } from './api.js';

export interface FlowSetup {
  flowId: number;
  /** Puts the tenant's settings back (no default flow) and deletes the flow. */
  remove(): Promise<void>;
}

export async function activateBenchFlow(baseUrl: string, adminToken: string): Promise<FlowSetup> {
  const graph = defaultChatFlow('bench', 'Olá! Digite 1 para vendas ou 2 para suporte.');
  const welcome = graph.nodeList.find((node) => node.type === 'node')!;
  if (welcome.type === 'node') {
    welcome.conditions = [
      { id: 'sales', type: 'US', condition: ['1'], action: 0, nextStepId: 'end' },
      { id: 'support', type: 'US', condition: ['2'], action: 0, nextStepId: 'end' },
    ];
  }
  graph.nodeList.push({
    id: 'end',
    type: 'node',
    name: 'Fim',
    interactions: [{ id: 'end-text', type: 'MessageField', data: { message: 'Obrigado!' } }],
    conditions: [],
    actions: [],
  });
  graph.lineList.push({ from: 'welcome', to: 'end', fromCondition: 'sales' });
  const flow = await api<ChatFlowDto>(baseUrl, adminToken, 'POST', '/chat-flow', {
    name: `bench ${Date.now()}`,
    isActive: true,
    flow: graph,
  });
  await api(baseUrl, adminToken, 'PUT', '/settings/botTicketActive', {
    key: 'botTicketActive',
    value: String(flow.id),
  });
  return {
    flowId: flow.id,
    async remove() {
      await api(baseUrl, adminToken, 'PUT', '/settings/botTicketActive', { key: 'botTicketActive', value: '' });
      // Tickets still in the flow keep it (it stays stored for them); the next run's prepare ends their bot part.
    },
  };
}
