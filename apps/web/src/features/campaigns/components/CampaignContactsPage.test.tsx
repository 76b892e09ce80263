/**
 * /campanhas/:campanhaId: the header and the recipients with their delivery state and reason; adding contacts by
 * tag and removing one or all while the campaign is pending or canceled; locked otherwise.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CampaignDto } from '@conversa/shared';
import { resetApiState } from '../../../lib/api';
import { contactFixture, contactPage } from '../../../test/contacts';
import { jsonResponse, renderRoutes } from '../../../test/render';
import { campaignFixture, recipientFixture } from '../campaigns.fixtures';
import { CampaignContactsPage } from './CampaignContactsPage';

const fetchMock = vi.fn<typeof fetch>();
const calls = () => fetchMock.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}`);
const bodyOf = (call: string) => {
  const found = fetchMock.mock.calls.find(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}` === call);
  return JSON.parse(String(found?.[1]?.body)) as unknown;
};

const VIP = { id: 1, tag: 'VIP', color: '#c92a2a', isActive: true };
const LEAD = { id: 2, tag: 'Lead', color: '#ffe066', isActive: true };
const RECIPIENTS = [
  recipientFixture(7, 'read', { name: 'Maria', tags: [{ id: 1, tag: 'VIP', color: '#c92a2a' }] }),
  recipientFixture(8, 'pending', { name: 'João', reason: 'ERR_CONTACT_BLOCKED' }),
];

function serve(campaign: CampaignDto) {
  fetchMock.mockImplementation(async (url, init) => {
    const path = String(url);
    const method = init?.method ?? 'GET';
    if (path === '/api/campaigns/5') return jsonResponse(campaign);
    if (path === '/api/campaigns/contacts/5' && method === 'GET') return jsonResponse(RECIPIENTS);
    if (path.startsWith('/api/tags/')) return jsonResponse([VIP, LEAD]);
    if (path.startsWith('/api/contacts/')) {
      const search = new URL(path, 'http://x').searchParams.get('searchParam') ?? '';
      const found = [contactFixture(9, { name: 'Ana Souza' })].filter((c) => c.name.includes(search));
      return jsonResponse(contactPage(found));
    }
    if (path === '/api/campaigns/contacts/5' && method === 'POST') return jsonResponse({ added: 1 });
    if (path === '/api/campaigns/5/contacts/tags') return jsonResponse({ added: 12 });
    if (method === 'DELETE') return jsonResponse({ ok: true });
    return jsonResponse({ error: 'unexpected' }, 500);
  });
}

const render = () =>
  renderRoutes([{ path: '/campanhas/:campanhaId', element: <CampaignContactsPage /> }], '/campanhas/5');

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
  localStorage.setItem('profile', 'super');
});
afterEach(() => vi.unstubAllGlobals());

describe('campaign contacts page', { timeout: 30_000 }, () => {
  it('shows the header and each recipient with tags, delivery state and the reason text', async () => {
    serve(campaignFixture(5, { name: 'Natal', contactsCount: 2, pendentesEnvio: 1, lidas: 1, recebidas: 1 }));
    render();
    expect(await screen.findByText('Contatos da campanha Natal')).toBeInTheDocument();
    expect(within(screen.getByTestId('campaign-header')).getByRole('progressbar', { hidden: true })).toHaveAttribute(
      'aria-valuenow',
      '50',
    );
    const maria = await screen.findByTestId('recipient-row-7');
    expect(within(maria).getByText('VIP')).toBeInTheDocument();
    expect(screen.getByTestId('recipient-state-7')).toHaveTextContent('Lida');
    expect(screen.getByTestId('recipient-state-8')).toHaveTextContent('Aguardando envio');
    expect(screen.getByTestId('recipient-reason-8')).toHaveTextContent(
      'O contato está bloqueado: não recebe mensagens.',
    );
  });

  it('adds every contact of the chosen tags with POST /campaigns/{id}/contacts/tags', async () => {
    serve(campaignFixture(5));
    render();
    await screen.findByTestId('recipient-row-7');
    fireEvent.click(screen.getByTestId('campaign-add-tags'));
    fireEvent.click(await screen.findByRole('option', { name: 'Lead', hidden: true }));
    fireEvent.click(screen.getByTestId('campaign-add-tags-submit'));
    await waitFor(() => expect(calls()).toContain('POST /api/campaigns/5/contacts/tags'));
    expect(bodyOf('POST /api/campaigns/5/contacts/tags')).toEqual({ tagIds: [2] });
  });

  it('adds contacts found by search with POST /campaigns/contacts/{id} and [{ id }]', async () => {
    serve(campaignFixture(5));
    render();
    await screen.findByTestId('recipient-row-7');
    const picker = screen.getByTestId('campaign-add-contacts');
    fireEvent.click(picker);
    fireEvent.change(picker, { target: { value: 'Ana' } });
    fireEvent.click(await screen.findByRole('option', { name: /Ana Souza/, hidden: true }));
    fireEvent.click(screen.getByTestId('campaign-add-contacts-submit'));
    await waitFor(() => expect(calls()).toContain('POST /api/campaigns/contacts/5'));
    expect(bodyOf('POST /api/campaigns/contacts/5')).toEqual([{ id: 9 }]);
  });

  it('removes one recipient, and all of them, after confirming', async () => {
    serve(campaignFixture(5, { status: 'canceled' }));
    render();
    fireEvent.click(await screen.findByTestId('recipient-remove-8'));
    fireEvent.click(await screen.findByTestId('confirm-delete'));
    await waitFor(() => expect(calls()).toContain('DELETE /api/campaigns/contacts/5/8'));
    fireEvent.click(screen.getByTestId('campaign-remove-all'));
    fireEvent.click(await screen.findByTestId('confirm-delete'));
    await waitFor(() => expect(calls()).toContain('DELETE /api/campaigns/deleteall/contacts/5'));
  });

  it('locks the list with an explanation while the campaign is scheduled, processing or finished', async () => {
    serve(campaignFixture(5, { status: 'processing' }));
    render();
    expect(await screen.findByTestId('campaign-locked')).toHaveTextContent(
      'A lista só pode ser alterada enquanto a campanha estiver pendente ou cancelada.',
    );
    expect(await screen.findByTestId('recipient-remove-7')).toBeDisabled();
    expect(screen.getByTestId('campaign-remove-all')).toBeDisabled();
    expect(screen.getByTestId('campaign-add-tags-submit')).toBeDisabled();
    expect(screen.getByTestId('campaign-add-contacts')).toBeDisabled();
  });
});
