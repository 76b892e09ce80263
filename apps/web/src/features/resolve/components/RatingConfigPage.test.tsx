import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetApiState } from '../../../lib/api';
import { jsonResponse, renderWithProviders } from '../../../test/render';
import { RatingConfigPage } from './RatingConfigPage';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));

const fetchMock = vi.fn<typeof fetch>();
const keyOf = (url: unknown, init?: RequestInit) =>
  `${init?.method ?? 'GET'} ${String(url)
    .replace(/^\/api/, '')
    .replace(/\?.*$/, '')}`;
const bodiesOf = (key: string) =>
  fetchMock.mock.calls
    .filter(([url, init]) => keyOf(url, init) === key)
    .map(([, init]) => JSON.parse(String(init?.body)) as unknown);

const config = {
  id: 4,
  rating: ['Péssimo', 'Ruim', 'Ok', 'Bom', 'Ótimo', 'Perfeito'].map((label, rating) => ({ rating, label })),
  ratingStore: 'Valeu!',
  ratingStoreAttemp: 'De 0 a 5, por favor.',
  ratingStoreError: 'Tudo bem.',
  ratingAttempts: 3,
};

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url, init) => {
    const key = keyOf(url, init);
    if (key === 'GET /tenants/rating/') return jsonResponse([config]);
    if (key === 'PUT /tenants/rating/' || key === 'PUT /tenantsRatingData/4') return jsonResponse([config]);
    return jsonResponse({ error: 'ERR_NOT_MOCKED' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
  localStorage.setItem('profile', 'super');
});
afterEach(() => vi.unstubAllGlobals());

describe('RatingConfigPage', () => {
  it('shows the stored labels, texts and attempts, and the menu the customer receives', async () => {
    renderWithProviders(<RatingConfigPage />);
    await waitFor(() => expect(screen.getByTestId('rating-label-5')).toHaveValue('Perfeito'));
    expect(screen.getByTestId('rating-store')).toHaveValue('Valeu!');
    expect(screen.getByTestId('rating-attempts')).toHaveValue('3');
    fireEvent.change(screen.getByTestId('rating-label-0'), { target: { value: 'Horrível' } });
    expect(screen.getByTestId('rating-preview').textContent).toContain('0 - Horrível\n1 - Ruim');
  });

  it('refuses an empty label and attempts out of 1-10, then saves labels and texts with two calls', async () => {
    renderWithProviders(<RatingConfigPage />);
    await waitFor(() => expect(screen.getByTestId('rating-label-5')).toHaveValue('Perfeito'));
    fireEvent.change(screen.getByTestId('rating-label-2'), { target: { value: ' ' } });
    fireEvent.change(screen.getByTestId('rating-attempts'), { target: { value: '0' } });
    fireEvent.click(screen.getByTestId('rating-save'));
    expect(await screen.findByText(/^Nota 2 é obrigatório$/)).toBeInTheDocument();
    expect(screen.getByText(/^Inform|^Indique/)).toBeInTheDocument();
    expect(bodiesOf('PUT /tenants/rating/')).toEqual([]);
    fireEvent.change(screen.getByTestId('rating-label-2'), { target: { value: 'Regular' } });
    fireEvent.change(screen.getByTestId('rating-attempts'), { target: { value: '5' } });
    fireEvent.click(screen.getByTestId('rating-save'));
    await waitFor(() => expect(bodiesOf('PUT /tenantsRatingData/4')).toHaveLength(1));
    expect(bodiesOf('PUT /tenants/rating/')[0]).toEqual(
      ['Péssimo', 'Ruim', 'Regular', 'Bom', 'Ótimo', 'Perfeito'].map((label, rating) => ({ rating, label })),
    );
    expect(bodiesOf('PUT /tenantsRatingData/4')[0]).toEqual({
      ratingStore: 'Valeu!',
      ratingStoreAttemp: 'De 0 a 5, por favor.',
      ratingStoreError: 'Tudo bem.',
      ratingAttempts: 5,
    });
  });
});
