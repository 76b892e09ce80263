import type { AppModule } from '../../kernel/module.js';
import { registerKanbanRealtime } from './kanban.realtime.js';
import { kanbanRoutes } from './kanban.routes.js';
import { createKanbanService } from './kanban.service.js';

export const kanbanModule: AppModule = (platform) => {
  registerKanbanRealtime(platform.events, platform.realtime);
  const service = createKanbanService({
    db: platform.db,
    events: platform.events,
    logger: platform.logger.child({ module: 'kanban' }),
  });
  return { plugin: kanbanRoutes(service) };
};
