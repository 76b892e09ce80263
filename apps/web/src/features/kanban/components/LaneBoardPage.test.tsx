/** The lane board without lanes: a notice whose link to /lanes reads as a link inside the sentence. */
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetApiState } from '../../../lib/api';
import { jsonResponse, renderRoutes } from '../../../test/render';
import { LaneBoardPage } from './LaneBoardPage';

vi.mock('./Board', () => ({ Board: () => null }));
vi.mock('./KanbanLayout', () => ({ useBoardSearch: () => '' }));

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  fetchMock.mockImplementation(async () => jsonResponse({ kanban: [] }));
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
  localStorage.setItem('userId', '1');
});
afterEach(() => vi.unstubAllGlobals());

describe('lane board without lanes', { timeout: 20_000 }, () => {
  it('links a manager to /lanes with an underlined link (axe link-in-text-block), named by its text', async () => {
    localStorage.setItem('profile', 'admin');
    renderRoutes([{ path: '/kanban/kanbans', element: <LaneBoardPage /> }], '/kanban/kanbans');
    const link = await screen.findByTestId('kanban-no-lanes-link');
    expect(link).toHaveAttribute('href', '/lanes');
    expect(link).toHaveAccessibleName('Cadastrar colunas');
    expect(link).toHaveAttribute('data-underline', 'always');
  });

  it('shows an agent the notice without the link', async () => {
    localStorage.setItem('profile', 'user');
    renderRoutes([{ path: '/kanban/kanbans', element: <LaneBoardPage /> }], '/kanban/kanbans');
    expect(await screen.findByTestId('kanban-no-lanes')).toBeInTheDocument();
    expect(screen.queryByTestId('kanban-no-lanes-link')).toBeNull();
  });
});
