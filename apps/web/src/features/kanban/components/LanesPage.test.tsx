import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LaneDto } from '@conversa/shared';
import { resetApiState } from '../../../lib/api';
import { jsonResponse, renderWithProviders } from '../../../test/render';
import { LanesPage, shiftLane } from './LanesPage';

const lanes: LaneDto[] = [
  { id: 1, name: 'Novo', position: 0 },
  { id: 2, name: 'Contato', position: 1 },
  { id: 3, name: 'Ganho', position: 2 },
];

describe('lanes', () => {
  it('shifts a lane one place up or down, never past the ends', () => {
    expect(shiftLane(lanes, lanes[1]!, -1).map((l) => l.id)).toEqual([2, 1, 3]);
    expect(shiftLane(lanes, lanes[1]!, 1).map((l) => l.id)).toEqual([1, 3, 2]);
    expect(shiftLane(lanes, lanes[0]!, -1).map((l) => l.id)).toEqual([1, 2, 3]);
    expect(shiftLane(lanes, lanes[2]!, 1).map((l) => l.id)).toEqual([1, 2, 3]);
  });

  describe('screen', () => {
    const fetchMock = vi.fn<typeof fetch>();
    beforeEach(() => {
      resetApiState();
      fetchMock.mockReset();
      fetchMock.mockImplementation(async (url, init) => {
        const path = String(url).replace(/^\/api/, '');
        if (init?.method === 'PUT' && path === '/kanban/order') {
          const { ids } = JSON.parse(String(init.body)) as { ids: number[] };
          return jsonResponse({
            kanban: ids.map((id, position) => ({ ...lanes.find((l) => l.id === id)!, position })),
          });
        }
        if (init?.method === 'POST' && path === '/kanban/') return jsonResponse({ id: 4, name: 'X', position: 3 }, 201);
        return jsonResponse({ kanban: lanes });
      });
      vi.stubGlobal('fetch', fetchMock);
    });
    afterEach(() => vi.unstubAllGlobals());

    it('moves a lane down with its button (PUT /kanban/order) and requires a name to create one', async () => {
      renderWithProviders(<LanesPage />);
      await screen.findByText('Contato');
      expect(screen.getByTestId('lane-up-1')).toBeDisabled();
      expect(screen.getByTestId('lane-down-3')).toBeDisabled();
      fireEvent.click(screen.getByTestId('lane-down-1'));
      await waitFor(() =>
        expect(fetchMock).toHaveBeenCalledWith(
          expect.stringContaining('/kanban/order'),
          expect.objectContaining({ method: 'PUT', body: JSON.stringify({ ids: [2, 1, 3] }) }),
        ),
      );
      fireEvent.click(screen.getByTestId('lanes-new'));
      fireEvent.click(await screen.findByTestId('lane-form-submit'));
      expect(await screen.findByText('Nome é obrigatório')).toBeInTheDocument();
      expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
    });
  });
});
