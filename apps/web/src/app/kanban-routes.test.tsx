import { describe, expect, it } from 'vitest';
import type { Profile } from '@conversa/shared';
import { menuFor, ROUTE_PROFILES } from './menus';
import { routes } from './router';

/** The route object at `path` (segments) under the shell. */
function findRoute(path: string[]) {
  let level = routes[0]!.children!.find((r) => r.path === '/')!.children!;
  let found;
  for (const segment of path) {
    found = level.find((r) => r.path === segment);
    level = found?.children ?? [];
  }
  return found;
}

describe('kanban routes and menus', () => {
  it('Kanban is in the agent, supervisor and admin menus; the lanes in the supervisor and admin menus', () => {
    const has = (name: string) => (profile: Profile) => menuFor(profile).some((entry) => entry.name === name);
    const profiles: Profile[] = ['user', 'super', 'admin', 'superadmin'];
    expect(profiles.map(has('kanban'))).toEqual([true, true, true, false]);
    expect(profiles.map(has('lanes'))).toEqual([false, true, true, false]);
    expect(ROUTE_PROFILES.lanes).toEqual(['super', 'admin']);
  });

  it('/kanban goes to /kanban/kanbans with kanbans and tags children; /configuracoes/lanes goes to /lanes', () => {
    const kanban = findRoute(['kanban'])!;
    const index = kanban.children!.find((r) => r.index)!;
    expect((index.element as { props: { to: string } }).props.to).toBe('kanbans');
    const boards = kanban.children!.find((r) => !r.index)!.children!.map((r) => r.path);
    expect(boards).toEqual(['kanbans', 'tags']);
    const settingsLanes = findRoute(['configuracoes', 'lanes'])!;
    expect((settingsLanes.element as { props: { to: string } }).props.to).toBe('/lanes');
  });
});
