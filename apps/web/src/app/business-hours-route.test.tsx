import { describe, expect, it } from 'vitest';
import type { Profile } from '@conversa/shared';
import { menuFor, ROUTE_PROFILES } from './menus';
import { routes } from './router';

describe('business hours route and menu', () => {
  it('"Horário de atendimento" is in the supervisor and admin menus only, and its route admits the same profiles', () => {
    const profiles: Profile[] = ['user', 'super', 'admin', 'superadmin'];
    const entry = (profile: Profile) => menuFor(profile).find((item) => item.name === 'horarioAtendimento');
    expect(profiles.map((profile) => entry(profile) !== undefined)).toEqual([false, true, true, false]);
    expect(entry('super')).toMatchObject({ path: '/horario-atendimento', labelKey: 'businessHours.menu' });
    expect(ROUTE_PROFILES.horarioAtendimento).toEqual(['super', 'admin']);
  });

  it('/horario-atendimento is a guarded shell route with the screen as its index', () => {
    const shell = routes[0]!.children!.find((route) => route.path === '/')!.children!;
    const route = shell.find((item) => item.path === 'horario-atendimento')!;
    expect((route.element as { props: { profiles: readonly Profile[] } }).props.profiles).toEqual(['super', 'admin']);
    expect(route.children!.find((child) => child.index)?.lazy).toBeTypeOf('function');
  });
});
