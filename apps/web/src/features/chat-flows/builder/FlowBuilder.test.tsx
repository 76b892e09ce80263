/**
 * The builder screen: loading and not-found, the keyboard path (steps list -> panel -> next step by select), the
 * validation that blocks saving, the exact save body, the server's refusal, undo/redo, deletion and leaving with
 * unsaved changes.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultChatFlow, type ChatFlowGraph } from '@conversa/shared';
import { resetApiState } from '../../../lib/api';
import { jsonResponse } from '../../../test/render';
import { defaultRoutes, flowDto, installFlowStubs, mockApi, renderBuilder, type Route } from './builder.test-utils';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));
const { notifyError, notifySuccess, notifyWarning } = await import('../../../lib/notify');

installFlowStubs();

let routes: Record<string, Route>;
let api: ReturnType<typeof mockApi>;

beforeEach(() => {
  resetApiState();
  routes = defaultRoutes();
  routes['PUT /chat-flow/7'] = (body) => jsonResponse({ ...flowDto(), ...(body as object) });
  api = mockApi(routes);
  vi.mocked(notifyError).mockClear();
  vi.mocked(notifySuccess).mockClear();
  vi.mocked(notifyWarning).mockClear();
  localStorage.setItem('token', 'jwt');
});
afterEach(() => vi.unstubAllGlobals());

const stepsList = () => screen.getByRole('navigation', { name: 'Etapas' });
const panel = () => screen.getByTestId('flow-panel');
const selectStep = async (name: string) => {
  fireEvent.click(within(stepsList()).getByRole('button', { name }));
  return within(panel());
};
const savedBodies = () => api.bodiesOf('PUT /chat-flow/7') as { flow: ChatFlowGraph }[];

describe('flow builder', { timeout: 30_000 }, () => {
  it('loads the flow: toolbar, the steps list, and the nodes on the canvas with their names', async () => {
    renderBuilder();
    expect(await screen.findByRole('button', { name: 'Adicionar etapa' })).toBeInTheDocument();
    expect(screen.getByLabelText('Nome do fluxo')).toHaveValue('Atendimento');
    expect(
      within(stepsList())
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Início', 'Configurações', 'Boas-vindas']);
    const canvas = screen.getByTestId('flow-canvas');
    expect(within(canvas).getByLabelText('Etapa: Boas-vindas')).toBeInTheDocument();
    expect(within(canvas).getByLabelText('Início')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Desfazer' })).toBeDisabled();
  });

  it('a missing flow shows a not-found message with a link to the list', async () => {
    routes['GET /chat-flow/7'] = () => jsonResponse({ error: 'ERR_NO_AUTO_REPLY_FOUND' }, 404);
    renderBuilder();
    expect(await screen.findByTestId('flow-not-found')).toHaveTextContent('Fluxo não encontrado');
    expect(screen.getByRole('link', { name: 'Ir para a lista de fluxos' })).toHaveAttribute('href', '/chat-flow');
  });

  it('keyboard path: select a step from the list, add a condition, choose its next step in the select, save', async () => {
    renderBuilder();
    fireEvent.click(await screen.findByRole('button', { name: 'Adicionar etapa' }));
    const added = within(panel());
    // The new step is selected and its name field takes the focus.
    await waitFor(() => expect(added.getByLabelText('Nome da etapa')).toHaveFocus());
    fireEvent.change(added.getByLabelText('Nome da etapa'), { target: { value: 'Menu' } });
    fireEvent.click(added.getByRole('button', { name: 'Adicionar texto' }));
    fireEvent.change(added.getByLabelText('Interação 1: mensagem'), { target: { value: 'Digite 1' } });

    const welcome = await selectStep('Boas-vindas');
    expect(welcome.getByLabelText('Nome da etapa')).toHaveValue('Boas-vindas');
    fireEvent.click(welcome.getByRole('button', { name: 'Adicionar condição' }));
    fireEvent.change(welcome.getByLabelText('Condição 1: tipo'), { target: { value: 'R' } });
    fireEvent.change(welcome.getByLabelText('Condição 1: próxima etapa'), {
      target: {
        value: within(welcome.getByLabelText('Condição 1: próxima etapa')).getByText('Menu').getAttribute('value'),
      },
    });
    // The edge appears on the canvas.
    await waitFor(() =>
      expect(
        within(screen.getByTestId('flow-canvas')).getByLabelText('Ligação de Etapa: Boas-vindas: Qualquer resposta'),
      ).toBeInTheDocument(),
    );

    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(savedBodies()).toHaveLength(1));
    const flow = savedBodies()[0]!.flow;
    const menu = flow.nodeList.find((n) => n.name === 'Menu')!;
    const start = flow.nodeList.find((n) => n.id === 'welcome') as Extract<
      ChatFlowGraph['nodeList'][number],
      { type: 'node' }
    >;
    expect(start.conditions).toEqual([
      { id: expect.any(String), type: 'R', condition: [], action: 0, nextStepId: menu.id },
    ]);
    expect(flow.lineList).toEqual([
      { from: 'start', to: 'welcome' },
      { from: 'welcome', to: menu.id, fromCondition: start.conditions[0]!.id },
    ]);
    expect(menu).toMatchObject({ interactions: [{ type: 'MessageField', data: { message: 'Digite 1' } }] });
    expect(notifySuccess).toHaveBeenCalledWith('Fluxo salvo.');
    await waitFor(() => expect(screen.queryByTestId('flow-dirty')).not.toBeInTheDocument());
  });

  it('validation lists the issues, marks the nodes, blocks saving; an issue selects its node', async () => {
    renderBuilder();
    fireEvent.click(await screen.findByRole('button', { name: 'Adicionar etapa' }));
    const welcome = await selectStep('Boas-vindas');
    fireEvent.click(welcome.getByRole('button', { name: 'Adicionar condição' }));

    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    const issues = within(screen.getByTestId('flow-issues'));
    expect(
      await issues.findByRole('button', { name: 'A etapa Etapa 2 não é alcançada a partir do início.' }),
    ).toBeVisible();
    expect(issues.getByRole('button', { name: 'Boas-vindas, Condição 1: escolha a próxima etapa.' })).toBeVisible();
    expect(notifyWarning).toHaveBeenCalledWith('Corrija os 2 problema(s) indicados antes de salvar.');
    expect(savedBodies()).toHaveLength(0);
    // Red border and an icon with a text alternative on both nodes.
    expect(screen.getByTestId('flow-node-welcome')).toHaveAttribute('data-issues', 'true');
    expect(within(screen.getByTestId('flow-node-welcome')).getByRole('img', { name: 'Com problemas' })).toBeTruthy();

    fireEvent.click(issues.getByRole('button', { name: 'A etapa Etapa 2 não é alcançada a partir do início.' }));
    expect(within(panel()).getByLabelText('Nome da etapa')).toHaveValue('Etapa 2');

    // Fixing the condition (close the ticket) and deleting the extra step clears the list; then it saves.
    const fixed = await selectStep('Boas-vindas');
    fireEvent.change(fixed.getByLabelText('Condição 1: ação'), { target: { value: '4' } });
    await selectStep('Etapa 2');
    fireEvent.click(within(panel()).getByRole('button', { name: 'Excluir etapa' }));
    expect(await issues.findByText('Nenhum problema encontrado.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(savedBodies()).toHaveLength(1));
  });

  it('save sends the whole record: name, isActive, celularTeste and the flow', async () => {
    const graph = defaultChatFlow('Atendimento');
    renderBuilder();
    const name = await screen.findByLabelText('Nome do fluxo');
    fireEvent.change(name, { target: { value: 'Atendimento 2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(savedBodies()).toHaveLength(1));
    expect(api.bodiesOf('PUT /chat-flow/7')[0]).toEqual({
      name: 'Atendimento 2',
      isActive: true,
      celularTeste: '5511999990000',
      flow: { ...graph, name: 'Atendimento 2' },
    });
  });

  it('an empty flow name blocks saving', async () => {
    renderBuilder();
    fireEvent.change(await screen.findByLabelText('Nome do fluxo'), { target: { value: '  ' } });
    expect(screen.getByText('Informe o nome do fluxo')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(savedBodies()).toHaveLength(0);
  });

  it("the server's ERR_CHAT_FLOW_INVALID is shown and the changes stay unsaved", async () => {
    routes['PUT /chat-flow/7'] = () => jsonResponse({ error: 'ERR_CHAT_FLOW_INVALID', field: 'flow' }, 400);
    renderBuilder();
    fireEvent.change(await screen.findByLabelText('Nome do fluxo'), { target: { value: 'Outro' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    const alert = await within(screen.getByTestId('flow-issues')).findByRole('alert');
    expect(alert.textContent).toMatch(/\S/);
    expect(notifyError).toHaveBeenCalledWith(alert.textContent);
    expect(screen.getByTestId('flow-dirty')).toBeInTheDocument();
  });

  it('undo and redo by buttons and keys (Ctrl+Z, Ctrl+Shift+Z, Ctrl+Y); text fields keep their own Ctrl+Z', async () => {
    renderBuilder();
    fireEvent.click(await screen.findByRole('button', { name: 'Adicionar etapa' }));
    const list = () =>
      within(stepsList())
        .getAllByRole('button')
        .map((b) => b.textContent);
    expect(list()).toContain('Etapa 2');
    const nameField = within(panel()).getByLabelText('Nome da etapa');
    fireEvent.keyDown(nameField, { key: 'z', ctrlKey: true });
    expect(list()).toContain('Etapa 2');

    fireEvent.keyDown(document.body, { key: 'z', ctrlKey: true });
    expect(list()).not.toContain('Etapa 2');
    fireEvent.keyDown(document.body, { key: 'Z', ctrlKey: true, shiftKey: true });
    expect(list()).toContain('Etapa 2');
    fireEvent.click(screen.getByRole('button', { name: 'Desfazer' }));
    expect(list()).not.toContain('Etapa 2');
    fireEvent.keyDown(document.body, { key: 'y', ctrlKey: true });
    expect(list()).toContain('Etapa 2');
    fireEvent.keyDown(document.body, { key: 'z', metaKey: true });
    expect(list()).not.toContain('Etapa 2');
    fireEvent.click(screen.getByRole('button', { name: 'Refazer' }));
    expect(list()).toContain('Etapa 2');
  });

  it("deleting a step moves the focus to its neighbour in the list; the start and configurations can't be deleted", async () => {
    renderBuilder();
    fireEvent.click(await screen.findByRole('button', { name: 'Adicionar etapa' }));
    fireEvent.click(within(panel()).getByRole('button', { name: 'Excluir etapa' }));
    await waitFor(() => expect(within(stepsList()).getByRole('button', { name: 'Boas-vindas' })).toHaveFocus());
    expect(within(stepsList()).queryByRole('button', { name: 'Etapa 2' })).not.toBeInTheDocument();

    await selectStep('Início');
    expect(within(panel()).queryByRole('button', { name: 'Excluir etapa' })).not.toBeInTheDocument();
    await selectStep('Configurações');
    expect(within(panel()).queryByRole('button', { name: 'Excluir etapa' })).not.toBeInTheDocument();
  });

  it('canvas keys: Enter on a focused node selects it, Delete removes the selected step; the side panel keeps its keys', async () => {
    renderBuilder();
    fireEvent.click(await screen.findByRole('button', { name: 'Adicionar etapa' }));
    // Delete on a button of the side area does not delete the selected step.
    const listButton = within(stepsList()).getByRole('button', { name: 'Etapa 2' });
    fireEvent.click(listButton);
    fireEvent.keyDown(listButton, { key: 'Delete' });
    expect(within(stepsList()).getByRole('button', { name: 'Etapa 2' })).toBeInTheDocument();

    const canvas = within(screen.getByTestId('flow-canvas'));
    const node = canvas.getByRole('group', { name: 'Etapa: Boas-vindas' });
    node.focus();
    fireEvent.keyDown(node, { key: 'Enter' });
    await waitFor(() => expect(within(panel()).getByLabelText('Nome da etapa')).toHaveValue('Boas-vindas'));
    fireEvent.keyDown(node, { key: 'Delete' });
    await waitFor(() => expect(within(stepsList()).queryByRole('button', { name: 'Boas-vindas' })).toBeNull());
    // The start and the configurations are not deleted by the key either.
    const start = canvas.getByRole('group', { name: 'Início' });
    fireEvent.keyDown(start, { key: 'Enter' });
    await waitFor(() => expect(within(panel()).getByLabelText('Primeira etapa')).toBeInTheDocument());
    fireEvent.keyDown(start, { key: 'Backspace' });
    expect(canvas.getByRole('group', { name: 'Início' })).toBeInTheDocument();
    fireEvent.keyDown(document.body, { key: 'z', ctrlKey: true });
    await waitFor(() => expect(within(stepsList()).getByRole('button', { name: 'Boas-vindas' })).toBeInTheDocument());
  });

  it('a link selected on the canvas is removed by Delete: the start leads nowhere', async () => {
    renderBuilder();
    const canvas = within(await screen.findByTestId('flow-canvas'));
    const edge = await canvas.findByRole('group', { name: 'Ligação de Início' });
    fireEvent.click(edge);
    fireEvent.keyDown(edge, { key: 'Delete' });
    await waitFor(() => expect(canvas.queryByRole('group', { name: 'Ligação de Início' })).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Validar' }));
    expect(
      await within(screen.getByTestId('flow-issues')).findByRole('button', {
        name: 'O início não está ligado a nenhuma etapa.',
      }),
    ).toBeInTheDocument();
  });

  it('Back asks before leaving with unsaved changes; without changes it just goes', async () => {
    const { router } = renderBuilder();
    fireEvent.click(await screen.findByRole('button', { name: 'Adicionar etapa' }));
    fireEvent.click(screen.getByRole('link', { name: 'Voltar para a lista' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sair sem salvar?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continuar editando' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe('/chat-flow/builder');

    fireEvent.click(screen.getByRole('button', { name: 'Desfazer' }));
    fireEvent.click(screen.getByRole('link', { name: 'Voltar para a lista' }));
    expect(await screen.findByTestId('list-stand-in')).toBeInTheDocument();
  });

  it('leaving with changes goes after confirming', async () => {
    const { router } = renderBuilder();
    fireEvent.change(await screen.findByLabelText('Nome do fluxo'), { target: { value: 'X' } });
    fireEvent.click(screen.getByRole('link', { name: 'Voltar para a lista' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sair sem salvar?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sair sem salvar' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/chat-flow'));
  });
});
