/**
 * Sockets live as long as the login session they were opened for. This is the one place that decides it: the
 * handshake's session check (registered on the realtime server), and the domain events that end sessions or change a
 * user's rooms, turned into disconnects on every node. Revocations send the invalid-token events first (clients log
 * out); a profile or queue change only disconnects (clients reconnect and join their new rooms).
 */
import type { Database } from '../../platform/db/client.js';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import type { EventBus } from '../../platform/events/bus.js';
import { rooms, type Realtime, type SessionCheck } from '../../platform/realtime/server.js';
import { findTenantById } from '../tenants/index.js';
import * as repo from './auth.repository.js';
import { isTenantUsable } from './auth.sessions.js';
import './auth.events.js';

/** The user exists with the token's version, the session's family still has a live token, the tenant is usable. */
export function sessionCheck(db: Database): SessionCheck {
  return async (claims) => {
    const sessionId = claims.sessionId;
    if (!sessionId) return null;
    const ctx = systemContext(claims.tenantId);
    return withTenant(db, ctx, async (tx) => {
      const user = await repo.findUserById(tx, ctx.tenantId, claims.userId);
      if (!user || user.tokenVersion !== claims.tokenVersion) return null;
      if (!(await repo.familyHasLiveToken(tx, ctx.tenantId, sessionId))) return null;
      if (!isTenantUsable(await findTenantById(tx, ctx.tenantId))) return null;
      return { profile: user.profile };
    });
  };
}

export function registerSocketSessions(deps: { db: Database; events: EventBus; realtime: Realtime }): void {
  const { events, realtime } = deps;
  realtime.setSessionCheck(sessionCheck(deps.db));

  events.subscribe('auth.session_ended', ({ sessionId }) =>
    realtime.disconnect(rooms.session(sessionId), { revoke: true }),
  );
  events.subscribe('auth.sessions_revoked', ({ userId }) => realtime.disconnect(rooms.user(userId), { revoke: true }));
  events.subscribe('users.deleted', ({ userId }) => realtime.disconnect(rooms.user(userId), { revoke: true }));
  events.subscribe('users.updated', async ({ userId, passwordChanged, keptSessionId, roomsChanged }) => {
    const room = rooms.user(userId);
    if (passwordChanged) {
      await realtime.disconnect(room, {
        revoke: true,
        ...(keptSessionId ? { except: rooms.session(keptSessionId) } : {}),
      });
    }
    if (roomsChanged) await realtime.disconnect(room);
  });
  events.subscribe('tenants.deactivated', ({ tenantId }) =>
    realtime.disconnect(rooms.tenant(tenantId), { revoke: true }),
  );
}
