/**
 * The composition root of the modules: the one file that names every module, in the order of the stack (ARCHITECTURE.md
 * §1), and wires each port a lower module owns to the module above that implements it. Only app.ts imports it.
 */
import type { AppModule } from './kernel/module.js';
import type { Platform } from './platform/platform.js';
import { authModule, createUserSessions } from './modules/auth/index.js';
import { brandingModule } from './modules/branding/index.js';
import { createChannelsModule, type SessionDriver } from './modules/channels/index.js';
import { contactsModule } from './modules/contacts/index.js';
import { inboxModule } from './modules/inbox/index.js';
import { createMessagesModule, createTicketMessaging, type AdapterLookup } from './modules/messages/index.js';
import { settingsModule, tenantSetup } from './modules/settings/index.js';
import { createTenantsModule } from './modules/tenants/index.js';
import { createUsersModule } from './modules/users/index.js';
import { queuesModule } from './modules/queues/index.js';
import { kanbanModule } from './modules/kanban/index.js';
import { tagsModule } from './modules/tags/index.js';
import { teamsModule } from './modules/teams/index.js';
import { farewellsModule } from './modules/farewells/index.js';
import { reasonsModule } from './modules/reasons/index.js';
import { createEvaluationsModule } from './modules/evaluations/index.js';
import { quickMessagesModule } from './modules/quick-messages/index.js';
import { messageSchedulingPort, schedulesModule } from './modules/schedules/index.js';
import { createTicketsModule, type TicketMessagingPort } from './modules/tickets/index.js';
import { notesModule } from './modules/notes/index.js';
import { notificationsModule } from './modules/notifications/index.js';
import { protocolsModule } from './modules/protocols/index.js';
import { chatbotModule, chatbotTicketPort } from './modules/chatbot/index.js';
import { campaignsModule } from './modules/campaigns/index.js';

/** What tests put in place of a module's real collaborator (buildApp's deps carry them). */
export interface ModuleOverrides {
  /** A recording double for the messages module's side of the tickets module. */
  ticketMessaging?: TicketMessagingPort;
  /** The channel adapters the message pipeline sends through (tests pass a recording one). */
  adapters?: AdapterLookup;
  /** Stateful session drivers instead of the installation's (tests pass fakes). */
  sessionDrivers?: SessionDriver[];
}

/** Every module, lowest first: a module's plugin and jobs register after those of the modules it stands on. */
export function appModules(overrides: ModuleOverrides = {}): AppModule[] {
  const { ticketMessaging } = overrides;
  const messagingFor = (platform: Platform): TicketMessagingPort =>
    ticketMessaging ?? createTicketMessaging({ jobs: platform.jobs });
  return [
    // Port: tenants owns TenantSetupPort (a new tenant's defaults, same transaction); settings implements it.
    createTenantsModule(() => tenantSetup),
    settingsModule,
    createUsersModule((platform) => createUserSessions(platform)),
    authModule,
    brandingModule,
    contactsModule,
    createChannelsModule(overrides.sessionDrivers),
    queuesModule,
    kanbanModule,
    tagsModule,
    teamsModule,
    farewellsModule,
    reasonsModule,
    quickMessagesModule,
    // Port: tickets owns TicketMessagingPort and TicketChatbotPort; messages and chatbot, above it, implement them.
    createTicketsModule(messagingFor, (platform) => chatbotTicketPort(platform)),
    createEvaluationsModule(messagingFor),
    // Port: a send with a `scheduleDate` becomes a scheduled message (the schedules module implements it).
    createMessagesModule({
      schedulingFor: (platform) => messageSchedulingPort(platform),
      ...(overrides.adapters ? { adapters: overrides.adapters } : {}),
    }),
    notificationsModule,
    notesModule,
    protocolsModule,
    schedulesModule,
    campaignsModule,
    chatbotModule,
    inboxModule,
  ];
}
