/**
 * Menus per profile (product-spec §2 "Menus"), limited to the screens that exist now: no placeholders. Each entry's
 * `name` gives its test id `nav-<name>`.
 */
import type { ComponentType } from 'react';
import {
  IconAddressBook,
  IconBuildingSkyscraper,
  IconHeadset,
  IconHome,
  IconPlugConnected,
  IconSettings,
  IconUserCog,
  IconUsers,
} from '@tabler/icons-react';
import type { Profile } from '@conversa/shared';

export type MenuName =
  'home' | 'atendimento' | 'contatos' | 'sessoes' | 'usuarios' | 'configuracoes' | 'tenants' | 'preferencias';

export interface MenuEntry {
  name: MenuName;
  path: string;
  labelKey: string;
  icon: ComponentType<{ size?: number; 'aria-hidden'?: boolean }>;
  profiles: readonly Profile[];
}

const ALL: readonly Profile[] = ['user', 'super', 'admin', 'superadmin'];

export const MENU: readonly MenuEntry[] = [
  // A superadmin's /home redirects to /tenants (product-spec §2), so their menu has no home entry.
  { name: 'home', path: '/home', labelKey: 'menu.home', icon: IconHome, profiles: ['super', 'admin'] },
  {
    name: 'atendimento',
    path: '/atendimento',
    labelKey: 'menu.atendimento',
    icon: IconHeadset,
    profiles: ['user', 'super', 'admin'],
  },
  // Contacts are in the agent menu and up; a superadmin never lands on contacts (product-spec §2, §6).
  {
    name: 'contatos',
    path: '/contatos',
    labelKey: 'menu.contatos',
    icon: IconAddressBook,
    profiles: ['user', 'super', 'admin'],
  },
  // Channels are in the supervisor menu and up; the superadmin's channels screen is /sessoestenants (product-spec §2).
  {
    name: 'sessoes',
    path: '/sessoes',
    labelKey: 'menu.sessoes',
    icon: IconPlugConnected,
    profiles: ['super', 'admin'],
  },
  {
    name: 'tenants',
    path: '/tenants',
    labelKey: 'menu.tenants',
    icon: IconBuildingSkyscraper,
    profiles: ['superadmin'],
  },
  {
    name: 'usuarios',
    path: '/usuarios',
    labelKey: 'menu.usuarios',
    icon: IconUsers,
    profiles: ['admin', 'superadmin'],
  },
  {
    name: 'configuracoes',
    path: '/configuracoes',
    labelKey: 'menu.configuracoes',
    icon: IconSettings,
    profiles: ['admin', 'superadmin'],
  },
  { name: 'preferencias', path: '/preferencias', labelKey: 'menu.preferencias', icon: IconUserCog, profiles: ALL },
];

export const menuFor = (profile: Profile): MenuEntry[] => MENU.filter((entry) => entry.profiles.includes(profile));

/** Which profiles may open a path of the shell (the same table as the menus). */
export const ROUTE_PROFILES: Record<MenuName, readonly Profile[]> = {
  home: ['super', 'admin', 'superadmin'],
  atendimento: ALL,
  contatos: ['user', 'super', 'admin'],
  sessoes: ['super', 'admin'],
  usuarios: ['admin', 'superadmin'],
  configuracoes: ['admin', 'superadmin'],
  tenants: ['superadmin'],
  preferencias: ALL,
};
