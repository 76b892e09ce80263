/**
 * Socket presence (client-contract §19): `{T}:setUserActive` / `{T}:setUserIdle` from the client, and the last socket
 * of a user going away, mark the user online or offline. Only the socket's own tenant prefix is listened to, and no
 * handler ever throws: a failure is logged. Shutting down disconnects every socket: the returned `settle` waits for
 * the writes that starts, so they finish before the database closes (they used to hit an ended pool).
 */
import { tenantEvent } from '@conversa/shared';
import type { Logger } from 'pino';
import { asTenantId } from '../../platform/db/tenancy.js';
import type { AuthedContext } from '../../platform/http/auth.js';
import { rooms, type AppSocket, type Realtime } from '../../platform/realtime/server.js';
import type { UsersService } from './users.service.js';

export function registerPresence(realtime: Realtime, service: UsersService, logger: Logger): () => Promise<void> {
  const pending = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  };
  realtime.onConnection((socket: AppSocket) => {
    const { claims } = socket.data;
    const ctx: AuthedContext = {
      tenantId: asTenantId(claims.tenantId),
      userId: claims.userId,
      profile: claims.profile,
    };
    const mark = (isOnline: boolean, why: string) => {
      track(
        service.setPresence(ctx, ctx.userId, isOnline).catch((error: unknown) => {
          logger.warn({ err: error, userId: ctx.userId, tenantId: ctx.tenantId, why }, 'presence update failed');
        }),
      );
    };
    socket.on(tenantEvent(claims.tenantId, 'setUserActive'), () => mark(true, 'setUserActive'));
    socket.on(tenantEvent(claims.tenantId, 'setUserIdle'), () => mark(false, 'setUserIdle'));
    socket.on('disconnect', () => {
      // socket.io has already taken this socket out of its rooms: 0 means it was the user's last one.
      track(
        realtime.countInRoom(rooms.user(ctx.userId)).then(
          (remaining) => {
            if (remaining === 0) mark(false, 'disconnect');
          },
          (error: unknown) => logger.warn({ err: error, userId: ctx.userId }, 'presence count failed'),
        ),
      );
    });
  });
  return async () => {
    while (pending.size > 0) await Promise.allSettled([...pending]);
  };
}
