/** The lanes board: a card moved by keyboard (Space, ArrowRight, Space) is stored, shown at once and rolled back. */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { VirtuosoMockContext } from 'react-virtuoso';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ColumnPage, KanbanCard } from '@conversa/shared';
import { resetApiState } from '../../../lib/api';
import { contactFixture } from '../../../test/contacts';
import { jsonResponse, renderWithProviders } from '../../../test/render';
import { Board } from './Board';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));
const { notifyError, notifySuccess } = await import('../../../lib/notify');

const fetchMock = vi.fn<typeof fetch>();
let routes: Record<string, (init: RequestInit) => Response>;

const card = (id: number, name: string, kanban: number | null): KanbanCard => ({
  id,
  name,
  pushname: null,
  number: `55119999900${id}`,
  profilePicUrl: null,
  isGroup: false,
  kanban,
});
const page = (...contacts: KanbanCard[]): ColumnPage => ({ contacts, hasMore: false, nextCursor: null });

const columns = [
  { id: 'none' as const, name: 'Sem coluna' },
  { id: 1, name: 'Novo' },
  { id: 2, name: 'Ganho' },
];

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  routes = {
    'GET /kanban/none/contacts': () => jsonResponse(page(card(10, 'Ana', null))),
    'GET /kanban/1/contacts': () => jsonResponse(page(card(11, 'Bia', 1))),
    'GET /kanban/2/contacts': () => jsonResponse(page()),
  };
  fetchMock.mockImplementation(async (url, init) => {
    const key = `${init?.method ?? 'GET'} ${String(url)
      .replace(/^\/api/, '')
      .replace(/\?.*$/, '')}`;
    const route = routes[key];
    return route ? route(init ?? {}) : jsonResponse({ error: 'ERR_NOT_MOCKED' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

function renderBoard() {
  renderWithProviders(
    <VirtuosoMockContext.Provider value={{ viewportHeight: 600, itemHeight: 60 }}>
      <Board kind="lanes" columns={columns} search="" />
    </VirtuosoMockContext.Provider>,
  );
}

const tick = () => act(() => new Promise((resolve) => setTimeout(resolve, 0)));

/** Space picks the card up, ArrowRight points at the next column, Space drops it there. */
async function keyboardMove(testId: string, steps: number) {
  const handle = await screen.findByTestId(testId);
  handle.focus();
  fireEvent.keyDown(handle, { code: 'Space', key: ' ' });
  await tick();
  for (let i = 0; i < steps; i += 1) {
    fireEvent.keyDown(handle, { code: 'ArrowRight', key: 'ArrowRight' });
    await tick();
  }
  fireEvent.keyDown(handle, { code: 'Space', key: ' ' });
  await tick();
}

const putCalls = () =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method === 'PUT')
    .map(([url, init]) => [String(url).replace(/^\/api/, ''), JSON.parse(String(init?.body)) as unknown]);

describe('lanes board', () => {
  it('moves a card by keyboard: PUT /contacts/{id} { kanban }, the card in the new column, a toast', async () => {
    routes['PUT /contacts/10'] = () => jsonResponse(contactFixture(10, { name: 'Ana', kanban: 1 }));
    renderBoard();
    expect(await within(screen.getByTestId('kanban-column-none')).findByText('Ana')).toBeInTheDocument();
    await keyboardMove('kanban-card-10', 1);
    await waitFor(() => expect(putCalls()).toEqual([['/contacts/10', { kanban: 1 }]]));
    await waitFor(() => expect(within(screen.getByTestId('kanban-column-1')).getByText('Ana')).toBeInTheDocument());
    expect(within(screen.getByTestId('kanban-column-none')).queryByText('Ana')).not.toBeInTheDocument();
    // In order by name: Ana before Bia.
    const names = within(screen.getByTestId('kanban-column-1'))
      .getAllByTestId(/kanban-card-/)
      .map((el) => el.textContent);
    expect(names[0]).toContain('Ana');
    await waitFor(() => expect(notifySuccess).toHaveBeenCalledWith(expect.stringContaining('Novo')));
  });

  it('two steps right reach the third column; the move into "no lane" sends kanban null', async () => {
    routes['PUT /contacts/10'] = () => jsonResponse(contactFixture(10, { name: 'Ana', kanban: 2 }));
    routes['PUT /contacts/11'] = () => jsonResponse(contactFixture(11, { name: 'Bia', kanban: null }));
    renderBoard();
    await keyboardMove('kanban-card-10', 2);
    await waitFor(() => expect(putCalls()).toEqual([['/contacts/10', { kanban: 2 }]]));
    // ArrowLeft from Novo goes back to "no lane".
    const bia = await screen.findByTestId('kanban-card-11');
    bia.focus();
    fireEvent.keyDown(bia, { code: 'Space', key: ' ' });
    await tick();
    fireEvent.keyDown(bia, { code: 'ArrowLeft', key: 'ArrowLeft' });
    await tick();
    fireEvent.keyDown(bia, { code: 'Space', key: ' ' });
    await waitFor(() => expect(putCalls()[1]).toEqual(['/contacts/11', { kanban: null }]));
  });

  it('rolls the card back to its column and shows the error when the server refuses the move', async () => {
    let answer: (value: Response) => void = () => undefined;
    // The server answers only when the test says so, so the optimistic state can be seen first.
    routes['PUT /contacts/10'] = () => {
      throw new Error('answered below');
    };
    const base = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation((url, init) =>
      init?.method === 'PUT' ? new Promise<Response>((resolve) => (answer = resolve)) : base(url, init),
    );
    renderBoard();
    await screen.findByTestId('kanban-card-10');
    await keyboardMove('kanban-card-10', 1);
    // Shown in the new column at once, before the server answers.
    await waitFor(() => expect(within(screen.getByTestId('kanban-column-1')).getByText('Ana')).toBeInTheDocument());
    answer(jsonResponse({ error: 'ERR_NO_LANE_FOUND' }, 404));
    await waitFor(() => expect(within(screen.getByTestId('kanban-column-none')).getByText('Ana')).toBeInTheDocument());
    expect(within(screen.getByTestId('kanban-column-1')).queryByText('Ana')).not.toBeInTheDocument();
    expect(notifyError).toHaveBeenCalled();
  });

  it('Escape cancels a keyboard drag: nothing is sent', async () => {
    renderBoard();
    const handle = await screen.findByTestId('kanban-card-10');
    handle.focus();
    fireEvent.keyDown(handle, { code: 'Space', key: ' ' });
    await tick();
    fireEvent.keyDown(handle, { code: 'ArrowRight', key: 'ArrowRight' });
    await tick();
    fireEvent.keyDown(handle, { code: 'Escape', key: 'Escape' });
    await tick();
    expect(putCalls()).toEqual([]);
    expect(within(screen.getByTestId('kanban-column-none')).getByText('Ana')).toBeInTheDocument();
  });

  it('on the tags board, a move is POST /contacts/{id}/move-tag { from, to } and the card keeps its other tags', async () => {
    routes = {
      'GET /kanban-tags/7/contacts': () => jsonResponse(page(card(10, 'Ana', null))),
      'GET /kanban-tags/8/contacts': () => jsonResponse(page()),
      'GET /kanban-tags/9/contacts': () => jsonResponse(page(card(10, 'Ana', null))),
      'POST /contacts/10/move-tag': () =>
        jsonResponse(
          contactFixture(10, {
            name: 'Ana',
            tags: [
              { id: 8, tag: 'Morno', color: '#000' },
              { id: 9, tag: 'Fica', color: '#000' },
            ],
          }),
        ),
    };
    renderWithProviders(
      <VirtuosoMockContext.Provider value={{ viewportHeight: 600, itemHeight: 60 }}>
        <Board
          kind="tags"
          columns={[
            { id: 7, name: 'Frio', color: '#00f' },
            { id: 8, name: 'Morno', color: '#f80' },
            { id: 9, name: 'Fica', color: '#0f0' },
          ]}
          search=""
        />
      </VirtuosoMockContext.Provider>,
    );
    await within(await screen.findByTestId('kanban-column-7')).findByText('Ana');
    const handle = within(screen.getByTestId('kanban-column-7')).getByTestId('kanban-card-10');
    handle.focus();
    fireEvent.keyDown(handle, { code: 'Space', key: ' ' });
    await tick();
    fireEvent.keyDown(handle, { code: 'ArrowRight', key: 'ArrowRight' });
    await tick();
    fireEvent.keyDown(handle, { code: 'Space', key: ' ' });
    await waitFor(() =>
      expect(
        fetchMock.mock.calls
          .filter(([, init]) => init?.method === 'POST')
          .map(([url, init]) => [String(url).replace(/^\/api/, ''), JSON.parse(String(init?.body)) as unknown]),
      ).toEqual([['/contacts/10/move-tag', { from: 7, to: 8 }]]),
    );
    await waitFor(() => expect(within(screen.getByTestId('kanban-column-8')).getByText('Ana')).toBeInTheDocument());
    expect(within(screen.getByTestId('kanban-column-7')).queryByText('Ana')).not.toBeInTheDocument();
    expect(within(screen.getByTestId('kanban-column-9')).getByText('Ana')).toBeInTheDocument();
  });
});
