import type { AppModule } from '../../kernel/module.js';
import { farewellsRoutes } from './farewells.routes.js';
import { createFarewellsService } from './farewells.service.js';

export const farewellsModule: AppModule = (platform) => ({
  plugin: farewellsRoutes(createFarewellsService({ db: platform.db })),
});
