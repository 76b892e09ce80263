/** Routes of chat flows and the legacy auto-reply (client-contract §13): filled in by the flows CRUD work. */
import type { FastifyPluginAsync } from 'fastify';
import type { Platform } from '../../platform/platform.js';

export function chatbotRoutes(_platform: Platform): FastifyPluginAsync {
  return async () => {};
}
