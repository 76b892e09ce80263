/**
 * Routes (product-spec §2), hash-based. Public: /login, /signup, /reset/:token. Everything else sits in the shell
 * behind the guard. Screens are lazy chunks (see lazy.ts); route names of the spec are the route ids.
 * Long file: one declarative table of every route of the spec's §2, kept whole so the tree reads as the spec's.
 */
import { lazy, Suspense } from 'react';
import { Center, Loader } from '@mantine/core';
import { createHashRouter, Navigate, Outlet, type RouteObject } from 'react-router';
import { NotFound } from '../components/NotFound';
import { ProfileRedirect, RequireAuth, RequireProfile, SuperadminToTenants } from './guard';
import { withTimeout } from './lazy';
import { ROUTE_PROFILES } from './menus';
import { useIdleReload, useNewVersionReload, useScrollToTop } from './page-behaviour';
import { RouteError } from './RouteError';

function RootLayout() {
  useScrollToTop();
  useIdleReload();
  useNewVersionReload();
  return <Outlet />;
}

export function FullPageLoader() {
  return (
    <Center mih="100vh" role="status" aria-live="polite">
      <Loader aria-label="Loading" />
    </Center>
  );
}

// The shell (header, menus, socket, realtime caches) is a chunk of its own: the login page's first load skips it.
const AppShellLayout = lazy(() =>
  withTimeout(() => import('./shell/AppShellLayout')).then((m) => ({ default: m.AppShellLayout })),
);

const screen =
  <M,>(load: () => Promise<M>, pick: (module: M) => React.ComponentType) =>
  async () => ({ Component: pick(await withTimeout(load)) });

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <FullPageLoader />,
    children: [
      {
        path: 'login',
        lazy: screen(
          () => import('../features/auth/components/LoginPage'),
          (m) => m.LoginPage,
        ),
      },
      {
        path: 'signup',
        lazy: screen(
          () => import('../features/auth/components/SignupPage'),
          (m) => m.SignupPage,
        ),
      },
      {
        path: 'signup/confirm/:token',
        lazy: screen(
          () => import('../features/auth/components/SignupConfirmPage'),
          (m) => m.SignupConfirmPage,
        ),
      },
      {
        path: 'reset/:token',
        lazy: screen(
          () => import('../features/auth/components/ResetPasswordPage'),
          (m) => m.ResetPasswordPage,
        ),
      },
      {
        path: '/',
        element: (
          <RequireAuth>
            <Suspense fallback={<FullPageLoader />}>
              <AppShellLayout />
            </Suspense>
          </RequireAuth>
        ),
        errorElement: <RouteError />,
        children: [
          { index: true, element: <ProfileRedirect /> },
          {
            path: 'home',
            id: 'home-dashboard',
            element: (
              <SuperadminToTenants>
                <RequireProfile profiles={ROUTE_PROFILES.home}>
                  <Outlet />
                </RequireProfile>
              </SuperadminToTenants>
            ),
            children: [
              {
                index: true,
                lazy: screen(
                  () => import('../features/home/components/HomeDashboardPage'),
                  (m) => m.HomeDashboardPage,
                ),
              },
            ],
          },
          {
            path: 'atendimento',
            id: 'atendimento',
            lazy: screen(
              () => import('../features/tickets/components/TicketsPage'),
              (m) => m.TicketsPage,
            ),
            // TicketsPage reads :ticketId itself and shows the chat in its right pane.
            children: [{ path: ':ticketId', id: 'chat-ticket' }],
          },
          {
            path: 'contatos',
            id: 'contatos',
            element: guarded(ROUTE_PROFILES.contatos),
            children: [
              {
                index: true,
                lazy: screen(
                  () => import('../features/contacts/components/ContactsPage'),
                  (m) => m.ContactsPage,
                ),
              },
            ],
          },
          {
            path: 'massa',
            element: guarded(ROUTE_PROFILES.massa),
            children: [
              // The spec's default tab is `template`: it arrives with the template sending; until then, the text tab.
              { index: true, element: <Navigate to="texto" replace /> },
              {
                lazy: screen(
                  () => import('../features/mass-sending/components/MassSendingLayout'),
                  (m) => m.MassSendingLayout,
                ),
                children: [
                  {
                    path: 'texto',
                    lazy: screen(
                      () => import('../features/mass-sending/components/TextSendPage'),
                      (m) => m.TextSendPage,
                    ),
                  },
                  {
                    path: 'textovariavel',
                    lazy: screen(
                      () => import('../features/mass-sending/components/VariableSendPage'),
                      (m) => m.VariableSendPage,
                    ),
                  },
                ],
              },
            ],
          },
          {
            path: 'kanban',
            element: guarded(ROUTE_PROFILES.kanban),
            children: [
              { index: true, element: <Navigate to="kanbans" replace /> },
              {
                lazy: screen(
                  () => import('../features/kanban/components/KanbanLayout'),
                  (m) => m.KanbanLayout,
                ),
                children: [
                  {
                    path: 'kanbans',
                    lazy: screen(
                      () => import('../features/kanban/components/LaneBoardPage'),
                      (m) => m.LaneBoardPage,
                    ),
                  },
                  {
                    path: 'tags',
                    lazy: screen(
                      () => import('../features/kanban/components/TagBoardPage'),
                      (m) => m.TagBoardPage,
                    ),
                  },
                ],
              },
            ],
          },
          {
            path: 'lanes',
            element: guarded(ROUTE_PROFILES.lanes),
            children: [
              {
                index: true,
                lazy: screen(
                  () => import('../features/kanban/components/LanesPage'),
                  (m) => m.LanesPage,
                ),
              },
            ],
          },
          {
            path: 'sessoes',
            id: 'sessoes',
            element: guarded(ROUTE_PROFILES.sessoes),
            children: [
              {
                index: true,
                lazy: screen(
                  () => import('../features/channels/components/ChannelsPage'),
                  (m) => m.ChannelsPage,
                ),
              },
            ],
          },
          {
            path: 'filas',
            element: guarded(ROUTE_PROFILES.filas),
            children: [
              {
                index: true,
                lazy: screen(
                  () => import('../features/queues/components/QueuesPage'),
                  (m) => m.QueuesPage,
                ),
              },
            ],
          },
          {
            path: 'equipes',
            element: guarded(ROUTE_PROFILES.equipes),
            children: [
              {
                index: true,
                lazy: screen(
                  () => import('../features/teams/components/TeamsPage'),
                  (m) => m.TeamsPage,
                ),
              },
            ],
          },
          {
            path: 'etiquetas',
            element: guarded(ROUTE_PROFILES.etiquetas),
            children: [
              {
                index: true,
                lazy: screen(
                  () => import('../features/tags/components/TagsPage'),
                  (m) => m.TagsPage,
                ),
              },
            ],
          },
          {
            path: 'mensagens-rapidas',
            element: guarded(ROUTE_PROFILES.mensagensRapidas),
            children: [
              {
                index: true,
                lazy: screen(
                  () => import('../features/quick-messages/components/QuickMessagesPage'),
                  (m) => m.QuickMessagesPage,
                ),
              },
            ],
          },
          {
            path: 'painel-atendimentos',
            element: guarded(ROUTE_PROFILES.painel),
            children: [
              {
                index: true,
                lazy: screen(
                  () => import('../features/ticket-panel/components/TicketPanelPage'),
                  (m) => m.TicketPanelPage,
                ),
              },
            ],
          },
          {
            path: 'usuarios',
            element: guarded(ROUTE_PROFILES.usuarios),
            children: [
              {
                index: true,
                lazy: screen(
                  () => import('../features/users/components/UsersPage'),
                  (m) => m.UsersPage,
                ),
              },
            ],
          },
          {
            path: 'usuariotenants',
            element: guarded(ROUTE_PROFILES.usuarioTenants),
            children: [
              {
                index: true,
                lazy: screen(
                  () => import('../features/users/components/UserTenantsPage'),
                  (m) => m.UserTenantsPage,
                ),
              },
            ],
          },
          {
            path: 'sessoestenants',
            element: guarded(ROUTE_PROFILES.sessoesTenants),
            children: [
              {
                index: true,
                lazy: screen(
                  () => import('../features/channel-tenants/components/ChannelTenantsPage'),
                  (m) => m.ChannelTenantsPage,
                ),
              },
            ],
          },
          {
            path: 'configuracoes',
            element: guarded(ROUTE_PROFILES.configuracoes),
            children: [
              { index: true, element: <Navigate to="geral" replace /> },
              // The spec's settings child for the kanban lanes is the lanes screen itself.
              { path: 'lanes', element: <Navigate to="/lanes" replace /> },
              {
                lazy: screen(
                  () => import('../features/settings/components/SettingsLayout'),
                  (m) => m.SettingsLayout,
                ),
                children: [
                  {
                    path: 'geral',
                    lazy: screen(
                      () => import('../features/settings/components/GeneralSettingsPage'),
                      (m) => m.GeneralSettingsPage,
                    ),
                  },
                  {
                    path: 'wuzapi',
                    lazy: screen(
                      () => import('../features/settings/components/GatewaySettingsPages'),
                      (m) => m.WuzapiSettingsPage,
                    ),
                  },
                  {
                    path: 'evolution',
                    lazy: screen(
                      () => import('../features/settings/components/GatewaySettingsPages'),
                      (m) => m.EvolutionSettingsPage,
                    ),
                  },
                  {
                    path: 'meta',
                    lazy: screen(
                      () => import('../features/settings/components/MetaSettingsPage'),
                      (m) => m.MetaSettingsPage,
                    ),
                  },
                  {
                    path: 'hub',
                    lazy: screen(
                      () => import('../features/settings/components/HubSettingsPage'),
                      (m) => m.HubSettingsPage,
                    ),
                  },
                  {
                    path: 'motivos',
                    lazy: screen(
                      () => import('../features/resolve/components/ReasonsPage'),
                      (m) => m.ReasonsPage,
                    ),
                  },
                ],
              },
            ],
          },
          {
            path: 'chat-flow',
            element: guarded(ROUTE_PROFILES.chatFlow),
            children: [
              {
                index: true,
                lazy: screen(
                  () => import('../features/chat-flows/components/ChatFlowsPage'),
                  (m) => m.ChatFlowsPage,
                ),
              },
              {
                // The visual builder of one flow: ?id=<id>.
                path: 'builder',
                lazy: screen(
                  () => import('../features/chat-flows/builder/ChatFlowBuilderPage'),
                  (m) => m.ChatFlowBuilderPage,
                ),
              },
            ],
          },
          // The ancestor's auto-reply screen is the chat flows now.
          { path: 'auto-resposta', element: <Navigate to="/chat-flow" replace /> },
          {
            path: 'horario-atendimento',
            element: guarded(ROUTE_PROFILES.horarioAtendimento),
            children: [
              {
                index: true,
                lazy: screen(
                  () => import('../features/business-hours/components/BusinessHoursPage'),
                  (m) => m.BusinessHoursPage,
                ),
              },
            ],
          },
          {
            path: 'fechamento',
            element: guarded(ROUTE_PROFILES.fechamento),
            children: [
              {
                index: true,
                lazy: screen(
                  () => import('../features/resolve/components/FarewellsPage'),
                  (m) => m.FarewellsPage,
                ),
              },
            ],
          },
          {
            path: 'avaliacoes',
            element: guarded(ROUTE_PROFILES.avaliacoes),
            children: [
              { index: true, element: <Navigate to="listar" replace /> },
              {
                lazy: screen(
                  () => import('../features/resolve/components/EvaluationsLayout'),
                  (m) => m.EvaluationsLayout,
                ),
                children: [
                  {
                    path: 'listar',
                    lazy: screen(
                      () => import('../features/resolve/components/EvaluationsListPage'),
                      (m) => m.EvaluationsListPage,
                    ),
                  },
                  {
                    path: 'configurar',
                    lazy: screen(
                      () => import('../features/resolve/components/RatingConfigPage'),
                      (m) => m.RatingConfigPage,
                    ),
                  },
                ],
              },
            ],
          },
          {
            path: 'notas',
            element: guarded(ROUTE_PROFILES.notas),
            children: [
              {
                index: true,
                lazy: screen(
                  () => import('../features/notes/components/NotesPage'),
                  (m) => m.NotesPage,
                ),
              },
            ],
          },
          {
            path: 'protocolos',
            element: guarded(ROUTE_PROFILES.protocolos),
            children: [
              {
                index: true,
                lazy: screen(
                  () => import('../features/protocols/components/ProtocolsPage'),
                  (m) => m.ProtocolsPage,
                ),
              },
            ],
          },
          {
            path: 'agendamentos',
            element: guarded(ROUTE_PROFILES.agendamentos),
            children: [
              {
                index: true,
                lazy: screen(
                  () => import('../features/schedules/components/SchedulesPage'),
                  (m) => m.SchedulesPage,
                ),
              },
            ],
          },
          {
            path: 'campanhas',
            element: guarded(ROUTE_PROFILES.campanhas),
            children: [
              {
                index: true,
                lazy: screen(
                  () => import('../features/campaigns/components/CampaignsPage'),
                  (m) => m.CampaignsPage,
                ),
              },
              {
                path: ':campanhaId',
                lazy: screen(
                  () => import('../features/campaigns/components/CampaignContactsPage'),
                  (m) => m.CampaignContactsPage,
                ),
              },
              {
                path: ':campanhaId/relatorio',
                lazy: screen(
                  () => import('../features/campaigns/components/CampaignReportPage'),
                  (m) => m.CampaignReportPage,
                ),
              },
            ],
          },
          {
            path: 'tenants',
            element: guarded(ROUTE_PROFILES.tenants),
            children: [
              {
                index: true,
                lazy: screen(
                  () => import('../features/tenants/components/TenantsPage'),
                  (m) => m.TenantsPage,
                ),
              },
            ],
          },
          {
            path: 'preferencias',
            lazy: screen(
              () => import('../features/preferences/components/PreferencesPage'),
              (m) => m.PreferencesPage,
            ),
          },
          { path: '*', element: <NotFound /> },
        ],
      },
    ],
  },
];

function guarded(profiles: (typeof ROUTE_PROFILES)[keyof typeof ROUTE_PROFILES]) {
  return (
    <RequireProfile profiles={profiles}>
      <Outlet />
    </RequireProfile>
  );
}

export const createAppRouter = () => createHashRouter(routes);
