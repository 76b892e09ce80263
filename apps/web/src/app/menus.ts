/**
 * Menus per profile (product-spec §2 "Menus"), limited to the screens that exist now: no placeholders. Each entry's
 * `name` gives its test id `nav-<name>`.
 */
import type { ComponentType } from 'react';
import {
  IconAddressBook,
  IconFileCertificate,
  IconNotes,
  IconArrowsSplit,
  IconBolt,
  IconRobot,
  IconCalendarTime,
  IconSpeakerphone,
  IconSend,
  IconClockHour4,
  IconMessageCircleHeart,
  IconStar,
  IconTags,
  IconUsersGroup,
  IconBuildingSkyscraper,
  IconHeadset,
  IconHome,
  IconLayoutDashboard,
  IconLayoutKanban,
  IconColumns3,
  IconPlugConnected,
  IconSettings,
  IconUserCog,
  IconUsers,
} from '@tabler/icons-react';
import type { Profile } from '@conversa/shared';

export type MenuName =
  | 'home'
  | 'painel'
  | 'atendimento'
  | 'contatos'
  | 'massa'
  | 'sessoes'
  | 'sessoesTenants'
  | 'usuarios'
  | 'usuarioTenants'
  | 'configuracoes'
  | 'tenants'
  | 'preferencias'
  | 'filas'
  | 'equipes'
  | 'kanban'
  | 'lanes'
  | 'etiquetas'
  | 'mensagensRapidas'
  | 'fechamento'
  | 'avaliacoes'
  | 'notas'
  | 'protocolos'
  | 'agendamentos'
  | 'campanhas'
  | 'chatFlow'
  | 'horarioAtendimento';

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
  // Mass sending is in the agent menu and up (product-spec §2): /massa/texto and /massa/textovariavel.
  { name: 'massa', path: '/massa', labelKey: 'massSending.menu', icon: IconSend, profiles: ['user', 'super', 'admin'] },
  // The boards are in the agent menu and up; their lanes are organisation settings (supervisor menu and up).
  {
    name: 'kanban',
    path: '/kanban',
    labelKey: 'kanban.menu.kanban',
    icon: IconLayoutKanban,
    profiles: ['user', 'super', 'admin'],
  },
  { name: 'lanes', path: '/lanes', labelKey: 'kanban.menu.lanes', icon: IconColumns3, profiles: ['super', 'admin'] },
  // Channels are in the supervisor menu and up; the superadmin's channels screen is /sessoestenants (product-spec §2).
  {
    name: 'sessoes',
    path: '/sessoes',
    labelKey: 'menu.sessoes',
    icon: IconPlugConnected,
    profiles: ['super', 'admin'],
  },
  // Queues, teams and tags are in the supervisor menu and up (product-spec §2).
  { name: 'filas', path: '/filas', labelKey: 'org.menu.filas', icon: IconArrowsSplit, profiles: ['super', 'admin'] },
  {
    name: 'equipes',
    path: '/equipes',
    labelKey: 'org.menu.equipes',
    icon: IconUsersGroup,
    profiles: ['super', 'admin'],
  },
  {
    name: 'etiquetas',
    path: '/etiquetas',
    labelKey: 'org.menu.etiquetas',
    icon: IconTags,
    profiles: ['super', 'admin'],
  },
  // Quick messages: in the supervisor menu and up; agents may open the screen to read them (the chat uses them).
  {
    name: 'mensagensRapidas',
    path: '/mensagens-rapidas',
    labelKey: 'menu.mensagensRapidas',
    icon: IconBolt,
    profiles: ['super', 'admin'],
  },
  // Chatbot flows: supervisor menu and up (product-spec §2); the builder is /chat-flow/builder.
  { name: 'chatFlow', path: '/chat-flow', labelKey: 'chatFlows.menu', icon: IconRobot, profiles: ['super', 'admin'] },
  // Business hours: supervisor menu and up; only admins may change them (supervisors see them read-only).
  {
    name: 'horarioAtendimento',
    path: '/horario-atendimento',
    labelKey: 'businessHours.menu',
    icon: IconClockHour4,
    profiles: ['super', 'admin'],
  },
  // Closing messages and ratings: supervisor menu and up (product-spec §2).
  {
    name: 'fechamento',
    path: '/fechamento',
    labelKey: 'resolve.menu.fechamento',
    icon: IconMessageCircleHeart,
    profiles: ['super', 'admin'],
  },
  {
    name: 'avaliacoes',
    path: '/avaliacoes',
    labelKey: 'resolve.menu.avaliacoes',
    icon: IconStar,
    profiles: ['super', 'admin'],
  },
  // Notes and protocols: supervisor menu and up (product-spec §2); agents see theirs in the chat.
  { name: 'notas', path: '/notas', labelKey: 'notes.menu', icon: IconNotes, profiles: ['super', 'admin'] },
  {
    name: 'protocolos',
    path: '/protocolos',
    labelKey: 'protocols.menu',
    icon: IconFileCertificate,
    profiles: ['super', 'admin'],
  },
  // Scheduled messages: supervisor menu and up (product-spec §2 "Schedules"); agents schedule from the chat.
  {
    name: 'agendamentos',
    path: '/agendamentos',
    labelKey: 'schedules.menu',
    icon: IconCalendarTime,
    profiles: ['super', 'admin'],
  },
  // Campaigns: supervisor menu and up (product-spec §2 "Campaigns"); /campanhas/:campanhaId lists a campaign's contacts.
  {
    name: 'campanhas',
    path: '/campanhas',
    labelKey: 'campaigns.menu',
    icon: IconSpeakerphone,
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
    name: 'painel',
    path: '/painel-atendimentos',
    labelKey: 'ticketPanel.menu',
    icon: IconLayoutDashboard,
    profiles: ['admin'],
  },
  {
    name: 'usuarios',
    path: '/usuarios',
    labelKey: 'menu.usuarios',
    icon: IconUsers,
    profiles: ['admin'],
  },
  // The superadmin's Users and Channels are every company's (product-spec §2: /usuariotenants, /sessoestenants).
  {
    name: 'usuarioTenants',
    path: '/usuariotenants',
    labelKey: 'menu.usuarios',
    icon: IconUsers,
    profiles: ['superadmin'],
  },
  {
    name: 'sessoesTenants',
    path: '/sessoestenants',
    labelKey: 'menu.sessoes',
    icon: IconPlugConnected,
    profiles: ['superadmin'],
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
  painel: ['admin'],
  kanban: ['user', 'super', 'admin'],
  lanes: ['super', 'admin'],
  home: ['super', 'admin', 'superadmin'],
  atendimento: ALL,
  contatos: ['user', 'super', 'admin'],
  // Every logged-in profile may open it; the menus that include the agent menu list it.
  massa: ALL,
  sessoes: ['super', 'admin'],
  sessoesTenants: ['superadmin'],
  usuarios: ['admin', 'superadmin'],
  usuarioTenants: ['superadmin'],
  configuracoes: ['admin', 'superadmin'],
  tenants: ['superadmin'],
  preferencias: ALL,
  filas: ['super', 'admin'],
  equipes: ['super', 'admin'],
  etiquetas: ['super', 'admin'],
  mensagensRapidas: ['user', 'super', 'admin'],
  fechamento: ['super', 'admin'],
  avaliacoes: ['super', 'admin'],
  notas: ['super', 'admin'],
  protocolos: ['super', 'admin'],
  agendamentos: ['super', 'admin'],
  campanhas: ['super', 'admin'],
  chatFlow: ['super', 'admin'],
  horarioAtendimento: ['super', 'admin'],
};
