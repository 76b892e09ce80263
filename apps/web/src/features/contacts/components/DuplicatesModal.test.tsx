import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetApiState } from '../../../lib/api';
import { contactFixture } from '../../../test/contacts';
import { jsonResponse, renderWithProviders } from '../../../test/render';
import { DuplicatesModal } from './DuplicatesModal';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
});
afterEach(() => vi.unstubAllGlobals());

describe('duplicates', () => {
  it('merges the others into the contact picked to keep; the group then leaves', async () => {
    const a = contactFixture(1, { name: 'Maria', number: '5511912345678' });
    const b = contactFixture(2, { name: 'Maria S.', number: '551112345678' });
    fetchMock.mockImplementation(async (input) =>
      String(input).endsWith('/contacts/merge')
        ? jsonResponse(b)
        : jsonResponse({ groups: [{ key: '551112345678', contacts: [a, b] }] }),
    );
    renderWithProviders(<DuplicatesModal opened onClose={vi.fn()} />);
    fireEvent.click(await screen.findByLabelText(/Maria S\./));
    fireEvent.click(screen.getByTestId('contacts-merge-551112345678'));
    await waitFor(() => expect(screen.getByTestId('contacts-duplicates-empty')).toBeInTheDocument());
    const merge = fetchMock.mock.calls.find(([input]) => String(input).endsWith('/contacts/merge'));
    expect(JSON.parse(String(merge?.[1]?.body))).toEqual({ targetId: 2, sourceIds: [1] });
  });

  it('says so when there are none', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ groups: [] }));
    renderWithProviders(<DuplicatesModal opened onClose={vi.fn()} />);
    expect(await screen.findByText('Nenhum contato duplicado encontrado.')).toBeInTheDocument();
  });
});
