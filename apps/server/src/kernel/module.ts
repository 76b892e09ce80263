/**
 * The module contract: what a domain module receives and what it gives back. It sits below every module (it imports
 * only platform/ and integrations/), so a module names the contract without naming the registry of all modules;
 * `modules.ts`, the composition root, is the one file that names every module (ARCHITECTURE.md §1).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Mailer } from '../integrations/smtp/mailer.js';
import type { JobDefinition } from '../platform/jobs/queue.js';
import type { Platform } from '../platform/platform.js';

export interface ModuleRegistration {
  plugin: FastifyPluginAsync;
  jobs?: JobDefinition<never>[];
  /** Background work that runs only on nodes with workers on (main.ts starts it after the job workers). */
  start?: () => Promise<void>;
  /** Stops that work when the app closes (before the job queue and the database). */
  stop?: () => Promise<void>;
}

/** What a module receives beside the platform: the integrations the installation built. */
export interface ModuleDeps {
  mailer: Mailer;
}

export type AppModule = (platform: Platform, deps: ModuleDeps) => ModuleRegistration;
