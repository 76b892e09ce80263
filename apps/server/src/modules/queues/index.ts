import type { AppModule } from '../../modules.js';
import { queuesRoutes } from './queues.routes.js';
import { createQueuesService } from './queues.service.js';

export { queues, userQueues } from './queues.tables.js';

export const queuesModule: AppModule = (platform) => ({
  plugin: queuesRoutes(createQueuesService({ db: platform.db })),
});
