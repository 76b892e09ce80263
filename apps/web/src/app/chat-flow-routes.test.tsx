/** /chat-flow: the supervisor menu and up, the guard on the real route, /auto-resposta redirecting to it. */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RouteObject } from 'react-router';
import type { Profile } from '@conversa/shared';
import { renderRoutes } from '../test/render';
import { menuFor } from './menus';
import { routes } from './router';

const shellChildren = () => routes[0]!.children!.find((r) => r.path === '/')!.children!;
const route = (path: string) => shellChildren().find((r) => r.path === path)!;

function logIn(profile: Profile) {
  localStorage.setItem('token', 'jwt');
  localStorage.setItem('profile', profile);
  localStorage.setItem('userId', '5');
  localStorage.setItem('username', 'Ana');
}

/** The real /chat-flow guard with a stand-in list screen, and the real /auto-resposta redirect. */
const testRoutes = (): RouteObject[] => [
  { path: '/chat-flow', element: route('chat-flow').element, children: [{ index: true, element: <p>flows</p> }] },
  { path: '/auto-resposta', element: route('auto-resposta').element },
];

describe('chat-flow routes and menus', () => {
  it('Chatbot is in the supervisor and admin menus only, pointing at /chat-flow', () => {
    const entry = (profile: Profile) => menuFor(profile).find((e) => e.name === 'chatFlow');
    const profiles: Profile[] = ['user', 'super', 'admin', 'superadmin'];
    expect(profiles.map((p) => Boolean(entry(p)))).toEqual([false, true, true, false]);
    expect(entry('super')).toMatchObject({ path: '/chat-flow', labelKey: 'chatFlows.menu' });
  });

  it('an agent gets NoAccess on /chat-flow; a supervisor gets the list', async () => {
    logIn('user');
    const agent = renderRoutes(testRoutes(), '/chat-flow');
    expect(await screen.findByTestId('no-access')).toBeInTheDocument();
    expect(screen.queryByText('flows')).not.toBeInTheDocument();
    agent.unmount();
    logIn('super');
    renderRoutes(testRoutes(), '/chat-flow');
    expect(await screen.findByText('flows')).toBeInTheDocument();
  });

  it('/auto-resposta redirects to /chat-flow', async () => {
    logIn('admin');
    const { router } = renderRoutes(testRoutes(), '/auto-resposta');
    expect(await screen.findByText('flows')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/chat-flow'));
  });
});
