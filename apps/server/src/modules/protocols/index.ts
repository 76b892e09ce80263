import type { AppModule } from '../../kernel/module.js';
import { createMediaLinks } from '../messages/index.js';
import { protocolsRoutes } from './protocols.routes.js';
import { createProtocolsService } from './protocols.service.js';

export const protocolsModule: AppModule = (platform) => {
  const { db, events, jobs, secrets, config } = platform;
  const links = createMediaLinks(secrets.jwtSecret, config.publicUrl);
  return { plugin: protocolsRoutes(createProtocolsService({ db, events, jobs, links })) };
};
