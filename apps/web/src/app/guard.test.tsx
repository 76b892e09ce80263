import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Outlet, type RouteObject } from 'react-router';
import type { Profile } from '@conversa/shared';
import { landingPath } from '../lib/session';
import { renderRoutes } from '../test/render';
import { ProfileRedirect, RequireAuth, SuperadminToTenants } from './guard';

vi.mock('../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));
const { notifyWarning } = await import('../lib/notify');

const routes: RouteObject[] = [
  { path: '/login', element: <p>login page</p> },
  {
    path: '/',
    element: (
      <RequireAuth>
        <Outlet />
      </RequireAuth>
    ),
    children: [
      { index: true, element: <ProfileRedirect /> },
      {
        path: 'home',
        element: (
          <SuperadminToTenants>
            <p>dashboard</p>
          </SuperadminToTenants>
        ),
      },
      { path: 'atendimento', element: <p>service screen</p> },
      { path: 'contatos', element: <p>contacts list</p> },
      { path: 'tenants', element: <p>tenants list</p> },
      { path: 'usuarios', element: <p>users list</p> },
    ],
  },
];

function logIn(profile: Profile) {
  localStorage.setItem('token', 'jwt');
  localStorage.setItem('profile', profile);
  localStorage.setItem('userId', '5');
  localStorage.setItem('username', 'Ana');
}

beforeEach(() => vi.mocked(notifyWarning).mockClear());

describe('guard', () => {
  it('sends a visitor without a token to /login with the notice', async () => {
    const { router } = renderRoutes(routes, '/usuarios');
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    await waitFor(() => expect(notifyWarning).toHaveBeenCalledWith('Necessário realizar login'));
  });

  it('lets a URL with a tokenSetup query parameter through', async () => {
    renderRoutes(routes, '/usuarios?tokenSetup=abc');
    expect(await screen.findByText('users list')).toBeInTheDocument();
    expect(notifyWarning).not.toHaveBeenCalled();
  });

  it('lets a logged-in user through', async () => {
    logIn('admin');
    renderRoutes(routes, '/usuarios');
    expect(await screen.findByText('users list')).toBeInTheDocument();
  });
});

describe('landing by profile', () => {
  it('maps profiles to their start page', () => {
    expect(landingPath('admin')).toBe('/home');
    expect(landingPath('super')).toBe('/home');
    expect(landingPath('superadmin')).toBe('/tenants');
    expect(landingPath('user')).toBe('/atendimento');
  });

  // The shell's root is not the landing after login: everyone but the superadmin goes to contatos (product-spec §2).
  it.each([
    ['admin', '/', '/contatos', 'contacts list'],
    ['super', '/', '/contatos', 'contacts list'],
    ['user', '/', '/contatos', 'contacts list'],
    ['superadmin', '/', '/tenants', 'tenants list'],
    ['superadmin', '/home', '/tenants', 'tenants list'],
  ] as const)('a %s opening %s lands on %s', async (profile, from, to, text) => {
    logIn(profile);
    const { router } = renderRoutes(routes, from);
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(to);
  });
});
