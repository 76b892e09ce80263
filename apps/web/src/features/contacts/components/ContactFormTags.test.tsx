/**
 * The contact form's coloured tag picker: the active tags are read when it opens, picked tags show as coloured pills,
 * and a changed set is saved with PUT /contact-tags/{id} after the contact itself (an unchanged set sends nothing).
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetApiState } from '../../../lib/api';
import { contactFixture } from '../../../test/contacts';
import { jsonResponse, renderWithProviders } from '../../../test/render';
import { ContactFormModal } from './ContactFormModal';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));

const VIP = { id: 1, tag: 'VIP', color: '#c92a2a', isActive: true };
const LEAD = { id: 2, tag: 'Lead', color: '#ffe066', isActive: true };
const fetchMock = vi.fn<typeof fetch>();
const calls = () => fetchMock.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}`);
const bodyOf = (method: string, path: string) => {
  const call = fetchMock.mock.calls.find(([url, init]) => String(url) === path && init?.method === method);
  return JSON.parse(String(call?.[1]?.body)) as unknown;
};

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
});
afterEach(() => vi.unstubAllGlobals());

const contact = contactFixture(4, { name: 'Maria', tags: [{ id: VIP.id, tag: VIP.tag, color: VIP.color }] });

function serve() {
  fetchMock.mockImplementation(async (url, init) => {
    const path = String(url);
    if (path.startsWith('/api/tags/')) return jsonResponse([LEAD, VIP]);
    if (path === '/api/contacts/4' && init?.method === 'PUT') return jsonResponse(contact);
    if (path === '/api/contact-tags/4') {
      const { tags } = JSON.parse(String(init?.body)) as { tags: number[] };
      return jsonResponse({ ...contact, tags: [LEAD, VIP].filter((tag) => tags.includes(tag.id)) });
    }
    return jsonResponse({ error: 'unexpected' }, 500);
  });
}

describe('contact form tags', () => {
  it('shows the contact’s tags as coloured pills without reading the tag list', () => {
    serve();
    renderWithProviders(<ContactFormModal opened onClose={vi.fn()} contact={contact} canListUsers={false} />);
    const pill = screen.getByTestId('tag-pill-1');
    expect(pill).toHaveTextContent('VIP');
    expect(pill).toHaveStyle({ backgroundColor: '#c92a2a', color: '#ffffff' });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('adds a tag from the active list and saves the set with PUT /contact-tags/{id}', async () => {
    serve();
    const onClose = vi.fn();
    renderWithProviders(<ContactFormModal opened onClose={onClose} contact={contact} canListUsers={false} />);
    fireEvent.click(screen.getByTestId('contact-form-tags'));
    await waitFor(() => expect(calls()).toEqual(['GET /api/tags/?isActive=true']));
    fireEvent.click(await screen.findByRole('option', { name: 'Lead', hidden: true }));
    // A light colour gets dark text.
    expect(screen.getByTestId('tag-pill-2')).toHaveStyle({ backgroundColor: '#ffe066', color: '#000000' });
    fireEvent.click(screen.getByTestId('contact-form-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls()).toEqual(['GET /api/tags/?isActive=true', 'PUT /api/contacts/4', 'PUT /api/contact-tags/4']);
    expect(bodyOf('PUT', '/api/contact-tags/4')).toEqual({ tags: [1, 2] });
  });

  it('removes a tag with its pill’s button (named for the tag) and saves the smaller set', async () => {
    serve();
    const onClose = vi.fn();
    renderWithProviders(<ContactFormModal opened onClose={onClose} contact={contact} canListUsers={false} />);
    const remove = within(screen.getByTestId('tag-pill-1')).getByRole('button', { hidden: true });
    expect(remove).toHaveAttribute('aria-label', 'Remover a etiqueta VIP');
    fireEvent.click(remove);
    expect(screen.queryByTestId('tag-pill-1')).not.toBeInTheDocument();
    fireEvent.click(screen.getByTestId('contact-form-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(bodyOf('PUT', '/api/contact-tags/4')).toEqual({ tags: [] });
  });

  it('sends no tag call when the set is unchanged', async () => {
    serve();
    const onClose = vi.fn();
    renderWithProviders(<ContactFormModal opened onClose={onClose} contact={contact} canListUsers={false} />);
    fireEvent.click(screen.getByTestId('contact-form-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls()).toEqual(['PUT /api/contacts/4']);
  });
});
