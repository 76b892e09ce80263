/**
 * The chat-flow list: states, the row switch, edit, new (default graph, then the builder), duplicate, export, import
 * (validation texts, file or pasted JSON, the server's refusal) and delete (the server's 409 text).
 */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { defaultChatFlow, type ChatFlowDto } from '@conversa/shared';
import { resetApiState } from '../../../lib/api';
import { createQueryClient } from '../../../lib/query-client';
import { jsonResponse, Providers } from '../../../test/render';
import { ChatFlowsPage } from './ChatFlowsPage';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));
const { notifyError, notifySuccess } = await import('../../../lib/notify');

const flowDto = (id: number, name: string, extra: Partial<ChatFlowDto> = {}): ChatFlowDto => ({
  id,
  name,
  isActive: true,
  celularTeste: null,
  userId: 1,
  flow: defaultChatFlow(name),
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  ...extra,
});
const SALES = flowDto(3, 'Vendas', { celularTeste: '5511999990000' });
const SUPPORT = flowDto(4, 'Suporte', { isActive: false });

type Route = (body: unknown) => Response | Promise<Response>;
const fetchMock = vi.fn<typeof fetch>();
let routes: Record<string, Route>;
const calls = () =>
  fetchMock.mock.calls.map(([url, init]) => ({
    key: `${init?.method ?? 'GET'} ${String(url).replace(/^\/api/, '')}`,
    body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
  }));
const bodiesOf = (key: string) =>
  calls()
    .filter((c) => c.key === key)
    .map((c) => c.body);

function BuilderStandIn() {
  const location = useLocation();
  return <p data-testid="builder-stand-in">{`${location.pathname}${location.search}`}</p>;
}

function renderPage() {
  const router = createMemoryRouter(
    [
      { path: '/chat-flow', element: <ChatFlowsPage /> },
      { path: '/chat-flow/builder', element: <BuilderStandIn /> },
    ],
    { initialEntries: ['/chat-flow'] },
  );
  render(
    <Providers queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return router;
}

beforeEach(() => {
  resetApiState();
  routes = { 'GET /chat-flow': () => jsonResponse({ chatFlow: [SALES, SUPPORT] }) };
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url, init) => {
    const key = `${init?.method ?? 'GET'} ${String(url).replace(/^\/api/, '')}`;
    const route = routes[key];
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    return route ? route(body) : jsonResponse({ error: 'ERR_NOT_MOCKED' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  vi.mocked(notifyError).mockClear();
  vi.mocked(notifySuccess).mockClear();
  localStorage.setItem('token', 'jwt');
});
afterEach(() => vi.unstubAllGlobals());

describe('chat-flow list', { timeout: 40_000 }, () => {
  it('lists name, active switch and test number; the builder link carries the id', async () => {
    renderPage();
    const sales = await screen.findByTestId('chat-flow-row-3');
    expect(sales).toHaveTextContent('Vendas');
    expect(sales).toHaveTextContent('+5511999990000');
    expect(screen.getByTestId('chat-flow-row-4')).toHaveTextContent('SuporteNenhum');
    expect(screen.getByRole('switch', { name: 'Fluxo Vendas ativo' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Fluxo Suporte ativo' })).not.toBeChecked();
    expect(screen.getByRole('link', { name: 'Abrir o fluxo Vendas no editor' })).toHaveAttribute(
      'href',
      '/chat-flow/builder?id=3',
    );
    for (const name of ['Editar', 'Excluir', 'Duplicar', 'Exportar', 'Importar JSON no']) {
      expect(screen.getByRole('button', { name: new RegExp(`^${name}.* Vendas`) })).toBeInTheDocument();
    }
  });

  it('shows the empty state', async () => {
    routes['GET /chat-flow'] = () => jsonResponse({ chatFlow: [] });
    renderPage();
    expect(await screen.findByText(/Nenhum fluxo cadastrado/)).toBeInTheDocument();
  });

  it('shows the load error with a retry that reads the list again', async () => {
    routes['GET /chat-flow'] = () => jsonResponse({ error: 'ERR_NO_PERMISSION' }, 400);
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('Não foi possível carregar');
    routes['GET /chat-flow'] = () => jsonResponse({ chatFlow: [SALES] });
    fireEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByTestId('chat-flow-row-3')).toBeInTheDocument();
  });

  it('shows a loading state while the list is read', async () => {
    routes['GET /chat-flow'] = () => new Promise<Response>(() => undefined);
    renderPage();
    expect(await screen.findByText('Carregando…')).toBeInTheDocument();
  });

  it('the row switch saves the whole record at once', async () => {
    let support = SUPPORT;
    routes['GET /chat-flow'] = () => jsonResponse({ chatFlow: [SALES, support] });
    routes['PUT /chat-flow/4'] = (body) => {
      support = { ...SUPPORT, ...(body as object), id: 4 };
      return jsonResponse(support);
    };
    renderPage();
    fireEvent.click(await screen.findByRole('switch', { name: 'Fluxo Suporte ativo' }));
    await waitFor(() =>
      expect(bodiesOf('PUT /chat-flow/4')).toEqual([
        { name: 'Suporte', isActive: true, celularTeste: null, flow: SUPPORT.flow },
      ]),
    );
    await waitFor(() => expect(notifySuccess).toHaveBeenCalledWith('Fluxo ativado.'));
    expect(screen.getByRole('switch', { name: 'Fluxo Suporte ativo' })).toBeChecked();
  });

  it('edit sends name, active and the test number as digits, keeping the graph', async () => {
    routes['PUT /chat-flow/3'] = (body) => jsonResponse({ ...SALES, ...(body as object), id: 3 });
    renderPage();
    fireEvent.click(await screen.findByTestId('chat-flow-edit-3'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText(/Número de teste/)).toHaveValue('+5511999990000');
    expect(within(dialog).getByText(/\+código do país, DDD e número/)).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText(/Nome/), { target: { value: ' Vendas 2 ' } });
    fireEvent.change(within(dialog).getByLabelText(/Número de teste/), { target: { value: '+55 (21) 98888-7777' } });
    fireEvent.click(within(dialog).getByRole('switch', { name: /Ativo/ }));
    fireEvent.click(within(dialog).getByTestId('chat-flow-form-submit'));
    await waitFor(() =>
      expect(bodiesOf('PUT /chat-flow/3')).toEqual([
        { name: 'Vendas 2', isActive: false, celularTeste: '5521988887777', flow: SALES.flow },
      ]),
    );
    await waitFor(() => expect(notifySuccess).toHaveBeenCalledWith('Fluxo salvo.'));
  });

  it('edit refuses a test number that is too short or too long, and sends null for none', async () => {
    routes['PUT /chat-flow/3'] = (body) => jsonResponse({ ...SALES, ...(body as object), id: 3 });
    renderPage();
    fireEvent.click(await screen.findByTestId('chat-flow-edit-3'));
    const dialog = await screen.findByRole('dialog');
    const number = within(dialog).getByLabelText(/Número de teste/);
    for (const bad of ['+55 11', '+1234567890123456']) {
      fireEvent.change(number, { target: { value: bad } });
      fireEvent.click(within(dialog).getByTestId('chat-flow-form-submit'));
      expect(await within(dialog).findByText(/Informe de 8 a 15 dígitos/)).toBeInTheDocument();
    }
    expect(bodiesOf('PUT /chat-flow/3')).toEqual([]);
    fireEvent.change(number, { target: { value: '' } });
    fireEvent.click(within(dialog).getByTestId('chat-flow-form-submit'));
    await waitFor(() => expect(bodiesOf('PUT /chat-flow/3')).toMatchObject([{ celularTeste: null }]));
  });

  it('"Novo fluxo" creates with the default graph of its name and opens the builder', async () => {
    routes['POST /chat-flow'] = (body) => jsonResponse({ ...flowDto(9, 'Atendimento'), ...(body as object) });
    const router = renderPage();
    fireEvent.click(await screen.findByTestId('chat-flows-new'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByTestId('chat-flow-form-submit'));
    expect(await within(dialog).findByText('Nome é obrigatório')).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText(/Nome/), { target: { value: 'Atendimento' } });
    fireEvent.click(within(dialog).getByTestId('chat-flow-form-submit'));
    expect(await screen.findByTestId('builder-stand-in')).toHaveTextContent('/chat-flow/builder?id=9');
    expect(bodiesOf('POST /chat-flow')).toEqual([
      { name: 'Atendimento', isActive: true, celularTeste: null, flow: defaultChatFlow('Atendimento') },
    ]);
    expect(router.state.location.search).toBe('?id=9');
  });

  it('duplicate posts the record (its id first of all) and reads the list again', async () => {
    routes['POST /chat-flow-duplicate'] = () =>
      jsonResponse(flowDto(10, 'Vendas (cópia)', { isActive: false, celularTeste: null }));
    renderPage();
    fireEvent.click(await screen.findByTestId('chat-flow-duplicate-3'));
    await waitFor(() => expect(notifySuccess).toHaveBeenCalledWith('Fluxo duplicado: Vendas (cópia).'));
    expect(bodiesOf('POST /chat-flow-duplicate')).toEqual([
      { id: 3, name: 'Vendas', isActive: true, celularTeste: '5511999990000', flow: SALES.flow },
    ]);
    await waitFor(() => expect(calls().filter((c) => c.key === 'GET /chat-flow')).toHaveLength(2));
  });

  it('export downloads <name>.json with name, isActive, celularTeste and flow', async () => {
    const blobs: Blob[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:flow';
    });
    // jsdom has no object URLs: these stand in for the test and are put back after it.
    const original = { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL };
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    onTestFinished(() => {
      Object.assign(URL, original);
    });
    let downloaded = '';
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloaded = this.download;
    });
    renderPage();
    fireEvent.click(await screen.findByTestId('chat-flow-export-3'));
    expect(click).toHaveBeenCalledTimes(1);
    click.mockRestore();
    expect(downloaded).toBe('Vendas.json');
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(blobs[0]!);
    });
    expect(JSON.parse(text)).toEqual({
      name: 'Vendas',
      isActive: true,
      celularTeste: '5511999990000',
      flow: JSON.parse(JSON.stringify(SALES.flow)),
    });
  });
});

describe('chat-flow import', { timeout: 40_000 }, () => {
  const openImport = async () => {
    renderPage();
    fireEvent.click(await screen.findByTestId('chat-flow-import-3'));
    return screen.findByRole('dialog');
  };
  const paste = (dialog: HTMLElement, text: string) =>
    fireEvent.change(within(dialog).getByLabelText('JSON do fluxo'), { target: { value: text } });
  const submit = (dialog: HTMLElement) => fireEvent.click(within(dialog).getByTestId('chat-flow-import-submit'));

  it('empty: "O JSON é obrigatório"; not JSON or not a flow: "Formato inválido. Verifique o JSON."; nothing sent', async () => {
    const dialog = await openImport();
    submit(dialog);
    expect(await within(dialog).findByText('O JSON é obrigatório')).toBeInTheDocument();
    paste(dialog, '{ "nodeList": ');
    submit(dialog);
    expect(await within(dialog).findByText('Formato inválido. Verifique o JSON.')).toBeInTheDocument();
    paste(dialog, '{"name":"not a flow"}');
    submit(dialog);
    expect(await within(dialog).findByText('Formato inválido. Verifique o JSON.')).toBeInTheDocument();
    expect(calls().filter((c) => c.key.startsWith('PUT'))).toEqual([]);
  });

  it('pasted exported record: PUT /chat-flow-import/{id} with the JSON plus id', async () => {
    routes['PUT /chat-flow-import/3'] = () => jsonResponse(SALES);
    const dialog = await openImport();
    const exported = { name: 'Outro', isActive: false, celularTeste: null, flow: defaultChatFlow('Outro') };
    paste(dialog, JSON.stringify(exported));
    submit(dialog);
    await waitFor(() => expect(notifySuccess).toHaveBeenCalledWith('Fluxo importado.'));
    expect(bodiesOf('PUT /chat-flow-import/3')).toEqual([{ ...exported, id: 3 }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('a picked .json file with a bare graph is what is sent', async () => {
    routes['PUT /chat-flow-import/3'] = () => jsonResponse(SALES);
    const dialog = await openImport();
    const graph = defaultChatFlow('Do arquivo');
    const file = new File([JSON.stringify(graph)], 'fluxo.json', { type: 'application/json' });
    const input = dialog.querySelector<HTMLInputElement>('input[type="file"]')!;
    expect(input).toHaveAttribute('accept', '.json,application/json');
    fireEvent.change(input, { target: { files: [file] } });
    await waitFor(() => expect(within(dialog).getByLabelText('JSON do fluxo')).toHaveValue(JSON.stringify(graph)));
    submit(dialog);
    await waitFor(() => expect(bodiesOf('PUT /chat-flow-import/3')).toEqual([{ ...graph, id: 3 }]));
  });

  it('a graph the server refuses shows its catalogue text in the dialog', async () => {
    routes['PUT /chat-flow-import/3'] = () => jsonResponse({ error: 'ERR_CHAT_FLOW_INVALID', field: 'flow' }, 400);
    const dialog = await openImport();
    paste(dialog, JSON.stringify(defaultChatFlow('x')));
    submit(dialog);
    expect(await within(dialog).findByTestId('chat-flow-import-error')).toHaveTextContent(
      'O fluxo tem problemas: corrija-os antes de salvar.',
    );
    expect(notifySuccess).not.toHaveBeenCalled();
  });
});

describe('chat-flow delete', { timeout: 40_000 }, () => {
  it('asks first; a flow a ticket runs shows the server’s text and stays', async () => {
    routes['DELETE /chat-flow/3'] = () => jsonResponse({ error: 'ERR_AUTO_REPLY_RELATIONED_TICKET' }, 409);
    renderPage();
    fireEvent.click(await screen.findByTestId('chat-flow-delete-3'));
    expect(await screen.findByText('Excluir o fluxo "Vendas"? Esta ação não pode ser desfeita.')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('confirm-delete'));
    await waitFor(() =>
      expect(notifyError).toHaveBeenCalledWith('Não é possível excluir um fluxo utilizado em tickets.'),
    );
    expect(notifySuccess).not.toHaveBeenCalled();
    expect(screen.getByTestId('chat-flow-row-3')).toBeInTheDocument();
  });

  it('a confirmed delete reads the list again', async () => {
    let list = [SALES, SUPPORT];
    routes['GET /chat-flow'] = () => jsonResponse({ chatFlow: list });
    routes['DELETE /chat-flow/3'] = () => {
      list = [SUPPORT];
      return jsonResponse({});
    };
    renderPage();
    fireEvent.click(await screen.findByTestId('chat-flow-delete-3'));
    fireEvent.click(await screen.findByTestId('confirm-delete'));
    await waitFor(() => expect(notifySuccess).toHaveBeenCalledWith('Fluxo excluído.'));
    await waitFor(() => expect(screen.queryByTestId('chat-flow-row-3')).not.toBeInTheDocument());
  });
});
