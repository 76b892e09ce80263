import type { AppModule } from '../../kernel/module.js';
import { registerPresence } from './users.presence.js';
import { registerUsersRealtime } from './users.realtime.js';
import { usersRoutes } from './users.routes.js';
import { createUsersService, type UserSessionsPort } from './users.service.js';
import type { Platform } from '../../platform/platform.js';
import { userTenantsRoutes } from './user-tenants.routes.js';
import { createUserTenantsService } from './user-tenants.service.js';

export { toUserDto } from './users.dto.js';
export { loadUserQueues } from './users.queues.js';
export { loadUserChannels } from './users.channels.js';
export type { RenewedSession, UsersService, UserSessionsPort } from './users.service.js';

/** `sessions`: the auth module's side of one's own password change (auth imports users, so it is handed in). */
export const createUsersModule =
  (sessions: (platform: Platform) => UserSessionsPort): AppModule =>
  (platform) => {
    const deps = { db: platform.db, events: platform.events };
    const port = sessions(platform);
    const service = createUsersService({ ...deps, sessions: port });
    registerUsersRealtime(platform.events, platform.realtime, service);
    const settlePresence = registerPresence(platform.realtime, service, platform.logger);
    const userTenants = userTenantsRoutes(createUserTenantsService(deps));
    return {
      plugin: async (app) => {
        // After the realtime server closed (preClose) and disconnected every socket: let their presence writes finish.
        app.addHook('onClose', settlePresence);
        await app.register(usersRoutes(service, port));
        await app.register(userTenants);
      },
    };
  };
