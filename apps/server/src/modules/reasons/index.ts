import type { AppModule } from '../../kernel/module.js';
import { reasonsRoutes } from './reasons.routes.js';
import { createReasonsService } from './reasons.service.js';

export { findReason } from './reasons.repository.js';

export const reasonsModule: AppModule = (platform) => ({
  plugin: reasonsRoutes(createReasonsService({ db: platform.db })),
});
