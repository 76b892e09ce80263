import type { AppModule } from '../../kernel/module.js';
import { registerTagsRealtime } from './tags.realtime.js';
import { tagsRoutes } from './tags.routes.js';
import { createTagsService } from './tags.service.js';

export const tagsModule: AppModule = (platform) => {
  registerTagsRealtime(platform.events, platform.realtime);
  return { plugin: tagsRoutes(createTagsService({ db: platform.db, events: platform.events })) };
};
