import type { AppModule } from '../../modules.js';
import { teamsRoutes } from './teams.routes.js';
import { createTeamsService } from './teams.service.js';

export const teamsModule: AppModule = (platform) => ({
  plugin: teamsRoutes(createTeamsService({ db: platform.db })),
});
