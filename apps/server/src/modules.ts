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
import { createTicketMessaging, messagesModule } from './modules/messages/index.js';
import { settingsModule } from './modules/settings/index.js';
import { tenantsModule } from './modules/tenants/index.js';
import { createUsersModule } from './modules/users/index.js';
import { queuesModule } from './modules/queues/index.js';
import { createTicketsModule } from './modules/tickets/index.js';

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
  createTicketsModule((platform) => createTicketMessaging({ jobs: platform.jobs })),
  messagesModule,
  inboxModule,
];
