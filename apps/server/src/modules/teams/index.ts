import type { AppModule } from '../../kernel/module.js';
import { teamsRoutes } from './teams.routes.js';
import { createTeamsService } from './teams.service.js';

export const teamsModule: AppModule = (platform) => ({
  plugin: teamsRoutes(createTeamsService({ db: platform.db })),
});
