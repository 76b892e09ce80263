import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Outlet, type RouteObject } from 'react-router';
import type { Profile } from '@conversa/shared';
import { renderRoutes } from '../test/render';
import { RequireProfile } from './guard';
import { menuFor, ROUTE_PROFILES } from './menus';

const routes: RouteObject[] = [
  {
    path: '/sessoes',
    element: (
      <RequireProfile profiles={ROUTE_PROFILES.sessoes}>
        <Outlet />
      </RequireProfile>
    ),
    children: [{ index: true, element: <p>channels screen</p> }],
  },
];

function logIn(profile: Profile) {
  localStorage.setItem('token', 'jwt');
  localStorage.setItem('profile', profile);
  localStorage.setItem('userId', '5');
  localStorage.setItem('username', 'Ana');
}

describe('channels route and menu', () => {
  it('lists Channels in the supervisor and admin menus only', () => {
    const has = (profile: Profile) => menuFor(profile).some((entry) => entry.name === 'sessoes');
    expect([has('user'), has('super'), has('admin'), has('superadmin')]).toEqual([false, true, true, false]);
  });

  it('shows NoAccess to the user profile', async () => {
    logIn('user');
    renderRoutes(routes, '/sessoes');
    expect(await screen.findByTestId('no-access')).toBeInTheDocument();
    expect(screen.queryByText('channels screen')).not.toBeInTheDocument();
  });

  it('lets a supervisor in', async () => {
    logIn('super');
    renderRoutes(routes, '/sessoes');
    expect(await screen.findByText('channels screen')).toBeInTheDocument();
  });
});
