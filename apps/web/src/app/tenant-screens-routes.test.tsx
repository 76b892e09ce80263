/** The superadmin's Users and Channels are every company's: /usuariotenants and /sessoestenants (product-spec §2). */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Outlet, type RouteObject } from 'react-router';
import type { Profile } from '@conversa/shared';
import { renderRoutes } from '../test/render';
import { RequireProfile } from './guard';
import { menuFor, ROUTE_PROFILES } from './menus';

const routes: RouteObject[] = [
  {
    path: '/usuariotenants',
    element: (
      <RequireProfile profiles={ROUTE_PROFILES.usuarioTenants}>
        <Outlet />
      </RequireProfile>
    ),
    children: [{ index: true, element: <p>users of every company</p> }],
  },
  {
    path: '/sessoestenants',
    element: (
      <RequireProfile profiles={ROUTE_PROFILES.sessoesTenants}>
        <Outlet />
      </RequireProfile>
    ),
    children: [{ index: true, element: <p>channels of every company</p> }],
  },
];

function logIn(profile: Profile) {
  localStorage.setItem('token', 'jwt');
  localStorage.setItem('profile', profile);
  localStorage.setItem('userId', '5');
  localStorage.setItem('username', 'Ana');
}

describe('superadmin user and channel screens', () => {
  it('the superadmin menu has Users and Channels of every company; the admin menu the company’s own', () => {
    const names = (profile: Profile) => menuFor(profile).map((entry) => entry.name);
    expect(names('superadmin')).toEqual(expect.arrayContaining(['tenants', 'usuarioTenants', 'sessoesTenants']));
    expect(names('superadmin')).not.toContain('usuarios');
    expect(names('superadmin')).not.toContain('sessoes');
    expect(names('admin')).toEqual(expect.arrayContaining(['usuarios', 'sessoes']));
    for (const profile of ['user', 'super', 'admin'] as const) {
      expect(names(profile)).not.toContain('usuarioTenants');
      expect(names(profile)).not.toContain('sessoesTenants');
    }
    const entry = menuFor('superadmin').find((e) => e.name === 'usuarioTenants');
    expect(entry).toMatchObject({ path: '/usuariotenants', labelKey: 'menu.usuarios' });
  });

  it.each(['/usuariotenants', '/sessoestenants'])('%s is for the superadmin only', async (path) => {
    logIn('admin');
    const admin = renderRoutes(routes, path);
    expect(await screen.findByTestId('no-access')).toBeInTheDocument();
    admin.unmount();
    logIn('superadmin');
    renderRoutes(routes, path);
    expect(await screen.findByText(/of every company/)).toBeInTheDocument();
  });
});
