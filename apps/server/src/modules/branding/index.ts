import type { AppModule } from '../../kernel/module.js';
import { brandingRoutes } from './branding.routes.js';

export const brandingModule: AppModule = (platform) => ({
  plugin: brandingRoutes({ publicUrl: platform.config.publicUrl }),
});
