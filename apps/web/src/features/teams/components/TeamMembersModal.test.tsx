/** The team members dialog: lists GET /group-message/{id}, adds a user not in the team yet, removes a member. */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TeamMember } from '@conversa/shared';
import { resetApiState } from '../../../lib/api';
import { jsonResponse, renderWithProviders } from '../../../test/render';
import { TeamMembersModal } from './TeamMembersModal';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));

const ANA: TeamMember = { id: 1, name: 'Ana', email: 'ana@x.test', profile: 'admin' };
const ZE: TeamMember = { id: 2, name: 'Zé', email: 'ze@x.test', profile: 'user' };
const user = (member: TeamMember) => ({
  ...member,
  isOnline: false,
  queues: [],
  whatsappAllowed: [],
  blockWavoip: false,
  configs: {},
  tenantId: 1,
  createdAt: '2025-01-02T10:00:00.000Z',
  updatedAt: '2025-01-02T10:00:00.000Z',
});
const TEAM = { id: 5, group: 'Plantão', isActive: true, users: [{ id: 1, name: 'Ana' }] };
const fetchMock = vi.fn<typeof fetch>();
const calls = () => fetchMock.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}`);

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
  let members = [ANA];
  fetchMock.mockImplementation(async (url, init) => {
    const path = String(url);
    const method = init?.method ?? 'GET';
    if (path === '/api/group-message/5' && method === 'GET') return jsonResponse(members);
    if (path.startsWith('/api/users/')) {
      return jsonResponse({ users: [user(ANA), user(ZE)], count: 2, hasMore: false });
    }
    if (path === '/api/group-message/user' && method === 'POST') {
      members = [ANA, ZE];
      return jsonResponse(members);
    }
    if (path === '/api/group-message/user/1/5' && method === 'DELETE') {
      members = members.filter((member) => member.id !== 1);
      return new Response(null, { status: 204 });
    }
    return jsonResponse({ error: 'unexpected' }, 500);
  });
});
afterEach(() => vi.unstubAllGlobals());

describe('team members', () => {
  it('offers only users outside the team, adds one with { userId, groupId } and removes a member', async () => {
    renderWithProviders(<TeamMembersModal team={TEAM} onClose={vi.fn()} />);
    expect(await screen.findByTestId('team-member-1')).toHaveTextContent('Ana');
    expect(screen.getByTestId('team-member-add')).toBeDisabled();
    fireEvent.click(screen.getByTestId('team-member-select'));
    await screen.findByRole('option', { name: 'Zé (ze@x.test)', hidden: true });
    expect(screen.queryByRole('option', { name: 'Ana (ana@x.test)', hidden: true })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('option', { name: 'Zé (ze@x.test)', hidden: true }));
    fireEvent.click(screen.getByTestId('team-member-add'));
    expect(await screen.findByTestId('team-member-2')).toHaveTextContent('ze@x.test');
    const post = fetchMock.mock.calls.find(
      ([url, init]) => String(url) === '/api/group-message/user' && init?.method === 'POST',
    );
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ userId: 2, groupId: 5 });

    fireEvent.click(screen.getByTestId('team-member-remove-1'));
    await waitFor(() => expect(screen.queryByTestId('team-member-1')).not.toBeInTheDocument());
    expect(calls()).toContain('DELETE /api/group-message/user/1/5');
  });

  it('shows the empty state of a team without members', async () => {
    fetchMock.mockImplementation(async (url) =>
      String(url).startsWith('/api/users/') ? jsonResponse({ users: [], count: 0, hasMore: false }) : jsonResponse([]),
    );
    renderWithProviders(<TeamMembersModal team={{ ...TEAM, users: [] }} onClose={vi.fn()} />);
    expect(await screen.findByTestId('team-members-empty')).toHaveTextContent('Esta equipe ainda não tem membros.');
  });
});
