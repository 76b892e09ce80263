import type { AppModule } from '../../kernel/module.js';
import { registerQueuesRealtime } from './queues.realtime.js';
import { queuesRoutes } from './queues.routes.js';
import { createQueuesService } from './queues.service.js';

export const queuesModule: AppModule = (platform) => {
  registerQueuesRealtime(platform.events, platform.realtime);
  return { plugin: queuesRoutes(createQueuesService({ db: platform.db, events: platform.events })) };
};
