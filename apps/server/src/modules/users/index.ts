import type { AppModule } from '../../modules.js';
import { registerPresence } from './users.presence.js';
import { registerUsersRealtime } from './users.realtime.js';
import { usersRoutes } from './users.routes.js';
import { createUsersService } from './users.service.js';
import { userTenantsRoutes } from './user-tenants.routes.js';
import { createUserTenantsService } from './user-tenants.service.js';

export { users, userTenants } from './users.tables.js';
export { toUserDto } from './users.dto.js';
export type { UsersService } from './users.service.js';

export const usersModule: AppModule = (platform) => {
  const deps = { db: platform.db, events: platform.events };
  const service = createUsersService(deps);
  registerUsersRealtime(platform.events, platform.realtime, service);
  const settlePresence = registerPresence(platform.realtime, service, platform.logger);
  const userTenants = userTenantsRoutes(createUserTenantsService(deps));
  return {
    plugin: async (app) => {
      // After the realtime server closed (preClose) and disconnected every socket: let their presence writes finish.
      app.addHook('onClose', settlePresence);
      await app.register(usersRoutes(service));
      await app.register(userTenants);
    },
  };
};
