/** The module registry: each module contributes a Fastify plugin (mounted under /api) and its job definitions. */
import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from './app.js';
import type { JobDefinition } from './platform/jobs/queue.js';
import type { Platform } from './platform/platform.js';
import { authModule, createUserSessions } from './modules/auth/index.js';
import { brandingModule } from './modules/branding/index.js';
import { channelsModule } from './modules/channels/index.js';
import { contactsModule } from './modules/contacts/index.js';
import { inboxModule } from './modules/inbox/index.js';
import { createMessagesModule, createTicketMessaging } from './modules/messages/index.js';
import { settingsModule } from './modules/settings/index.js';
import { tenantsModule } from './modules/tenants/index.js';
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
import { createTicketsModule } from './modules/tickets/index.js';
import { notesModule } from './modules/notes/index.js';
import { notificationsModule } from './modules/notifications/index.js';
import { protocolsModule } from './modules/protocols/index.js';
import { chatbotModule, chatbotTicketPort } from './modules/chatbot/index.js';

export interface ModuleRegistration {
  plugin: FastifyPluginAsync;
  jobs?: JobDefinition<never>[];
  /** Background work that runs only on nodes with workers on (main.ts starts it after the job workers). */
  start?: () => Promise<void>;
  /** Stops that work when the app closes (before the job queue and the database). */
  stop?: () => Promise<void>;
}

export type AppModule = (platform: Platform, deps: AppDeps) => ModuleRegistration;

export const modules: AppModule[] = [
  settingsModule,
  createUsersModule((platform) => createUserSessions(platform)),
  authModule,
  tenantsModule,
  brandingModule,
  contactsModule,
  channelsModule,
  queuesModule,
  kanbanModule,
  tagsModule,
  teamsModule,
  farewellsModule,
  reasonsModule,
  quickMessagesModule,
  createTicketsModule(
    (platform) => createTicketMessaging({ jobs: platform.jobs }),
    (platform) => chatbotTicketPort(platform),
  ),
  createEvaluationsModule((platform) => createTicketMessaging({ jobs: platform.jobs })),
  // A send with a `scheduleDate` becomes a scheduled message (the schedules module implements the port).
  createMessagesModule((platform) => messageSchedulingPort(platform)),
  notificationsModule,
  notesModule,
  protocolsModule,
  schedulesModule,
  chatbotModule,
  inboxModule,
];
