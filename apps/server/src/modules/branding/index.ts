import type { AppModule } from '../../modules.js';
import { brandingRoutes } from './branding.routes.js';

export const brandingModule: AppModule = (platform) => ({
  plugin: brandingRoutes({ publicUrl: platform.config.publicUrl }),
});
