/**
 * The side panel's edits, each checked in the flow JSON: a step's name, interactions (text, media by upload or URL,
 * caption, delay, order, delete), conditions (type, words, action and its target), node actions, the start's first
 * step, and every configurations field.
 */
import { useEffect, useReducer } from 'react';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultChatFlow, type ChatFlowGraph } from '@conversa/shared';
import { resetApiState } from '../../../lib/api';
import { createQueryClient } from '../../../lib/query-client';
import { jsonResponse, Providers } from '../../../test/render';
import { BuilderProvider } from './builder.context';
import { addStep, type ConfigurationsNode, type StepNode } from './builder.graph';
import { builderReducer, initialBuilderState } from './builder.state';
import { defaultRoutes, mockApi } from './builder.test-utils';
import { NodePanel } from './NodePanel';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));

let current: ChatFlowGraph;

function Harness({ graph, nodeId }: { graph: ChatFlowGraph; nodeId: string }) {
  const [state, dispatch] = useReducer(builderReducer, graph, initialBuilderState);
  useEffect(() => {
    current = state.present;
  }, [state.present]);
  return (
    <BuilderProvider graph={state.present} flowId={7} dispatch={dispatch}>
      <NodePanel
        graph={state.present}
        node={state.present.nodeList.find((n) => n.id === nodeId)}
        onDeleteStep={(id) => dispatch({ type: 'deleteSteps', ids: [id] })}
      />
    </BuilderProvider>
  );
}

const graphWithTwoSteps = () => addStep(defaultChatFlow('F'), { id: 'two', name: 'Dois', left: 0, top: 0 });
const step = (id: string) => current.nodeList.find((n) => n.id === id) as StepNode;
const configurations = () =>
  (current.nodeList.find((n) => n.type === 'configurations') as ConfigurationsNode).configurations;

function renderPanel(nodeId: string, graph: ChatFlowGraph = graphWithTwoSteps()) {
  render(
    <Providers queryClient={createQueryClient()}>
      <Harness graph={graph} nodeId={nodeId} />
    </Providers>,
  );
}
const change = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
/** Waits until the select lists `option` (queues, users and flows load), then picks it. */
async function pick(label: string, option: string) {
  const select = screen.getByLabelText(label);
  const element = await within(select).findByRole('option', { name: option });
  fireEvent.change(select, { target: { value: element.getAttribute('value') } });
}

let api: ReturnType<typeof mockApi>;
beforeEach(() => {
  resetApiState();
  const routes = defaultRoutes();
  routes['POST /chat-flow-media'] = () =>
    jsonResponse({ mediaUrl: 'http://x/api/public/chat-flow/1/cf-1.pdf', name: 'tabela.pdf', type: 'document' });
  api = mockApi(routes);
  localStorage.setItem('token', 'jwt');
});
afterEach(() => vi.unstubAllGlobals());

describe('node panel', { timeout: 30_000 }, () => {
  it("a step's name and interactions: text, media (upload and URL), caption, delay, order, delete", async () => {
    renderPanel('two');
    change('Nome da etapa', 'Cardápio');
    expect(step('two').name).toBe('Cardápio');

    fireEvent.click(screen.getByRole('button', { name: 'Adicionar texto' }));
    change('Interação 1: mensagem', 'Olá {{firstName}}');
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar mídia' }));
    const file = new File(['%PDF'], 'tabela.pdf', { type: 'application/pdf' });
    const input = screen.getByTestId('interaction-2').querySelector('input[type="file"]')!;
    fireEvent.change(input, { target: { files: [file] } });
    await waitFor(() =>
      expect(screen.getByLabelText('Interação 2: endereço da mídia')).toHaveValue(
        'http://x/api/public/chat-flow/1/cf-1.pdf',
      ),
    );
    expect(api.calls().filter((c) => c.key === 'POST /chat-flow-media')).toHaveLength(1);
    change('Interação 2: legenda', 'Nossa tabela');
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar espera' }));
    change('Interação 3: espera em segundos (1 a 3600)', '30');

    expect(step('two').interactions).toEqual([
      { id: expect.any(String), type: 'MessageField', data: { message: 'Olá {{firstName}}' } },
      {
        id: expect.any(String),
        type: 'MediaField',
        data: {
          mediaUrl: 'http://x/api/public/chat-flow/1/cf-1.pdf',
          type: 'document',
          name: 'tabela.pdf',
          caption: 'Nossa tabela',
        },
      },
      { id: expect.any(String), type: 'DelayField', data: { seconds: 30 } },
    ]);

    // A pasted address and its type.
    change('Interação 2: endereço da mídia', 'https://example.com/foto.jpg');
    change('Interação 2: tipo da mídia', 'image');
    expect(step('two').interactions[1]).toMatchObject({
      data: { mediaUrl: 'https://example.com/foto.jpg', type: 'image' },
    });

    fireEvent.click(screen.getByRole('button', { name: 'Mover para cima: Interação 3' }));
    expect(step('two').interactions.map((i) => i.type)).toEqual(['MessageField', 'DelayField', 'MediaField']);
    fireEvent.click(screen.getByRole('button', { name: 'Mover para baixo: Interação 1' }));
    expect(step('two').interactions.map((i) => i.type)).toEqual(['DelayField', 'MessageField', 'MediaField']);
    fireEvent.click(screen.getByRole('button', { name: 'Excluir: Interação 1' }));
    expect(step('two').interactions.map((i) => i.type)).toEqual(['MessageField', 'MediaField']);
  });

  it('conditions: type, words, action with each target (step, queue, user, flow, close), order and delete', async () => {
    renderPanel('welcome');
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar condição' }));
    const words = screen.getByRole('combobox', { name: 'Condição 1: palavras' });
    await userEvent.type(words, '1{Enter}vendas{Enter}');
    await pick('Condição 1: próxima etapa', 'Dois');
    expect(step('welcome').conditions).toEqual([
      { id: expect.any(String), type: 'US', condition: ['1', 'vendas'], action: 0, nextStepId: 'two' },
    ]);
    const conditionId = step('welcome').conditions[0]!.id;
    expect(current.lineList).toContainEqual({ from: 'welcome', to: 'two', fromCondition: conditionId });

    change('Condição 1: ação', '1');
    await pick('Condição 1: fila', 'Financeiro');
    expect(step('welcome').conditions[0]).toMatchObject({ action: 1, queueId: 2, nextStepId: null });
    expect(current.lineList).toEqual([{ from: 'start', to: 'welcome' }]);
    change('Condição 1: ação', '2');
    await pick('Condição 1: usuário', 'Bruno');
    expect(step('welcome').conditions[0]).toMatchObject({ action: 2, userIdDestination: 6, queueId: null });
    change('Condição 1: ação', '3');
    await pick('Condição 1: fluxo', 'Vendas');
    expect(step('welcome').conditions[0]).toMatchObject({ action: 3, chatFlowId: 8, userIdDestination: null });
    // The flow being edited is not offered as a target.
    expect(
      within(screen.getByLabelText('Condição 1: fluxo')).queryByRole('option', { name: 'Atendimento' }),
    ).toBeNull();
    change('Condição 1: ação', '4');
    expect(step('welcome').conditions[0]).toMatchObject({ action: 4, chatFlowId: null });

    change('Condição 1: tipo', 'O');
    expect(screen.queryByRole('combobox', { name: 'Condição 1: palavras' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar condição' }));
    change('Condição 2: tipo', 'A');
    fireEvent.click(screen.getByRole('button', { name: 'Mover para cima: Condição 2' }));
    expect(step('welcome').conditions.map((c) => c.type)).toEqual(['A', 'O']);
    fireEvent.click(screen.getByRole('button', { name: 'Excluir: Condição 1' }));
    expect(step('welcome').conditions.map((c) => c.type)).toEqual(['O']);
  });

  it('node actions: handover to a queue, a user, another flow, or close', async () => {
    renderPanel('welcome');
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar ação' }));
    await pick('Ação 1: fila', 'Suporte');
    expect(step('welcome').actions).toEqual([{ id: expect.any(String), action: 1, queueId: 1 }]);
    change('Ação 1: o que fazer', '2');
    await pick('Ação 1: usuário', 'Ana');
    expect(step('welcome').actions[0]).toMatchObject({ action: 2, userIdDestination: 5, queueId: null });
    change('Ação 1: o que fazer', '4');
    expect(step('welcome').actions[0]).toMatchObject({ action: 4, userIdDestination: null });
    fireEvent.click(screen.getByRole('button', { name: 'Excluir: Ação 1' }));
    expect(step('welcome').actions).toEqual([]);
  });

  it("the start's panel sets the first step; a step's delete button removes it", () => {
    renderPanel('start');
    change('Primeira etapa', 'two');
    expect(current.lineList).toEqual([{ from: 'start', to: 'two' }]);
    change('Primeira etapa', '');
    expect(current.lineList).toEqual([]);
  });

  it('configurations: every field lands in its place', async () => {
    renderPanel('configurations');
    change('Mensagem de boas-vindas', 'Bem-vindo!');
    change('Mensagem de despedida', 'Até logo');
    change('Mensagem de opção inválida', 'Não entendi');
    change('Depois da opção inválida', 'S');
    change('Tempo sem resposta (minutos)', '15');
    change('Sem resposta do cliente: transferir para', '2');
    await pick('Sem resposta do cliente: destino', 'Ana');
    change('Mensagem por falta de resposta', 'Vou transferir');
    change('Respostas inválidas seguidas', '4');
    await pick('Limite de respostas inválidas: destino', 'Financeiro');
    change('Fora do horário de atendimento: usar', 'on');
    await pick('Fora do horário de atendimento: destino', 'Suporte');
    change('Cliente que já conversou antes: usar', 'on');
    change('Cliente que já conversou antes: transferir para', '2');
    await pick('Cliente que já conversou antes: destino', 'Bruno');
    change('Palavras-chave de início', 'oi, olá');
    change('Distribuição dos atendimentos', 'B');

    expect(configurations()).toEqual({
      welcomeMessage: { message: 'Bem-vindo!' },
      farewellMessage: { message: 'Até logo' },
      notOptionsSelectMessage: { message: 'Não entendi', stepReturn: 'S' },
      notResponseMessage: { time: 15, type: 2, destiny: 5, message: 'Vou transferir' },
      maxRetryBotMessage: { number: 4, type: 1, destiny: 2 },
      outOpenHours: { type: 1, destiny: 1 },
      firstInteraction: { type: 2, destiny: 6 },
      keyword: { message: 'oi, olá' },
      autoDistributeTickets: 'B',
    });

    change('Fora do horário de atendimento: usar', '');
    change('Distribuição dos atendimentos', '');
    expect(configurations().outOpenHours).toBeUndefined();
    expect('autoDistributeTickets' in configurations()).toBe(false);
  });
});
