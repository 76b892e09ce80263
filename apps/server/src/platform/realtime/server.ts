/**
 * socket.io on the API's port, on the default namespace and on `/api` (clients built with URL_API=<host>/api).
 * The handshake carries the access token. No token, or one our key did not sign, is refused in the middleware
 * (`connect_error`, which clients do not retry in a loop); an expired token or a session the registered check no longer
 * accepts gets the invalid-token events, then a disconnect. A socket lives as long as its login session: it is never
 * re-checked, the session's end disconnects it (`disconnect`). Sockets join rooms for their tenant, user, current
 * profile and session; `publish` is the one way to emit. One user holds at most MAX_SOCKETS_PER_USER sockets.
 */
import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import { createAdapter as createRedisAdapter } from '@socket.io/redis-streams-adapter';
import { createAdapter as createPostgresAdapter } from '@socket.io/postgres-adapter';
import type pg from 'pg';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { ClientToServerEvents, Profile, ServerToClientEvents } from '@conversa/shared';
import { AppError } from '../http/errors.js';
import { socketOriginAllowed } from '../http/cors.js';
import type { TokenService, AccessClaims } from '../http/tokens.js';

export type AppSocket = Socket<ClientToServerEvents, ServerToClientEvents, NodeEvents, { claims: AccessClaims }>;
type EmitArgs = Parameters<ServerToClientEvents[keyof ServerToClientEvents]>;

export const rooms = {
  tenant: (tenantId: number) => `tenant:${tenantId}`,
  user: (userId: number) => `user:${userId}`,
  profile: (tenantId: number, profile: string) => `profile:${tenantId}:${profile}`,
  session: (sessionId: string) => `session:${sessionId}`,
};

/** What the session check reads from the database: the socket's rooms follow the current profile, not the token's. */
export interface SocketSession {
  profile: Profile;
}
/** null = the session is over (user gone, password changed, logged out, family revoked, tenant inactive). */
export type SessionCheck = (claims: AccessClaims) => Promise<SocketSession | null>;

export interface Realtime {
  publish(room: string | string[], event: keyof ServerToClientEvents & string, ...args: EmitArgs): void;
  /** Called for every authenticated socket (modules register their client-event handlers here). */
  onConnection(listener: (socket: AppSocket) => void): void;
  /** The auth module registers the handshake's session check (platform imports no module). */
  setSessionCheck(check: SessionCheck): void;
  /**
   * Disconnects the sockets of a room on every node (through the adapter). `revoke` first sends the invalid-token
   * events, so clients log out; without it clients reconnect and get fresh rooms. `except` spares a room's sockets.
   */
  disconnect(room: string, options?: { revoke?: boolean; except?: string }): Promise<void>;
  /** How many sockets (across every node) are in a room. */
  countInRoom(room: string): Promise<number>;
  /** The ids of the users of a tenant with at least one socket (across every node). */
  connectedUserIds(tenantId: number): Promise<number[]>;
  close(): Promise<void>;
}

const NAMESPACES = ['/', '/api'] as const;

/**
 * Sockets one user may hold at once, over both namespaces and (with an adapter) every node: a browser tab holds one,
 * so 20 covers many tabs and devices, while a client opening sockets in a loop cannot hold hundreds (each costs
 * memory and a share of every event's fan-out). The NEW handshake past the cap is refused (`connect_error`
 * `ERR_LIMIT_MAX`, `data.limit: 'socketsPerUser'`): the sockets already open keep working, none is cut.
 */
export const MAX_SOCKETS_PER_USER = 20;

/** Between nodes: each one revokes its own sockets of a room, so the events surely reach them before the disconnect. */
interface NodeEvents {
  revokeSockets: (room: string, except: string | null) => void;
}
const ATTACHMENTS_TABLE = `CREATE TABLE IF NOT EXISTS socket_io_attachments (
  id bigserial UNIQUE, created_at timestamptz DEFAULT now(), payload bytea)`;

export function createRealtime(options: {
  httpServer: HttpServer;
  tokens: TokenService;
  logger: Logger;
  adapter: 'none' | 'redis' | 'postgres';
  redisUrl?: string | undefined;
  pool?: pg.Pool | undefined;
  /** CORS_ORIGINS: the web origins besides the API's own (PUBLIC_URL) that may open a socket. */
  cors: { publicUrl: string; origins: readonly string[] };
  /** MAX_SOCKETS_PER_USER unless given (tests). */
  maxSocketsPerUser?: number;
}): Realtime {
  const { cors } = options;
  const maxPerUser = options.maxSocketsPerUser ?? MAX_SOCKETS_PER_USER;
  const io = new Server<ClientToServerEvents, ServerToClientEvents, NodeEvents, { claims: AccessClaims }>(
    options.httpServer,
    {
      cors: { origin: cors.origins.length > 0 ? [...cors.origins] : false, credentials: true },
      allowRequest: (request, callback) => callback(null, socketOriginAllowed(request, cors.publicUrl, cors.origins)),
      maxHttpBufferSize: 1e6,
      serveClient: false,
    },
  );
  let redis: Redis | undefined;
  if (options.adapter === 'redis' && options.redisUrl) {
    redis = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
    io.adapter(createRedisAdapter(redis));
  } else if (options.adapter === 'postgres' && options.pool) {
    const pool = options.pool;
    void pool
      .query(ATTACHMENTS_TABLE)
      .catch((error: unknown) => options.logger.error({ err: error }, 'socket.io table'));
    io.adapter(
      createPostgresAdapter(pool, {
        tableName: 'socket_io_attachments',
        errorHandler: (error) => options.logger.warn({ err: error }, 'socket.io postgres adapter'),
      }),
    );
  }
  const listeners: ((socket: AppSocket) => void)[] = [];
  let sessionCheck: SessionCheck | undefined;

  // The per-user cap on this node: connected sockets by user, plus handshakes accepted but not yet connected (a
  // reservation taken synchronously with the count, so concurrent handshakes of one user cannot all pass it).
  const connectedByUser = new Map<number, Set<string>>();
  const pendingByUser = new Map<number, number>();
  const bump = (userId: number, delta: number) => {
    const n = (pendingByUser.get(userId) ?? 0) + delta;
    if (n > 0) pendingByUser.set(userId, n);
    else pendingByUser.delete(userId);
  };
  const localCount = (userId: number) => (connectedByUser.get(userId)?.size ?? 0) + (pendingByUser.get(userId) ?? 0);
  /** The user's sockets on the other nodes (through the adapter; none without one). */
  async function remoteCount(userId: number): Promise<number> {
    if (options.adapter === 'none') return 0;
    const local = connectedByUser.get(userId);
    let total = 0;
    for (const name of NAMESPACES) {
      for (const socket of await io.of(name).in(rooms.user(userId)).fetchSockets()) if (!local?.has(socket.id)) total++;
    }
    return total;
  }
  /** Takes a place for the user's new socket, or answers false at the cap; the place is the caller's to release. */
  async function reserve(userId: number): Promise<boolean> {
    if (localCount(userId) >= maxPerUser) return false;
    bump(userId, 1);
    if (localCount(userId) + (await remoteCount(userId)) > maxPerUser) {
      bump(userId, -1);
      return false;
    }
    return true;
  }
  const limitError = () =>
    Object.assign(new Error('ERR_LIMIT_MAX'), { data: { limit: 'socketsPerUser', max: maxPerUser } });

  // The invalid-token events and the disconnect go out from the socket's own node in order (separate adapter
  // messages can overtake each other: the PostgreSQL adapter sends each on any connection of its pool).
  async function revokeLocal(room: string, except: string | null): Promise<void> {
    for (const name of NAMESPACES) {
      const local = io.of(name).local.in(room);
      for (const socket of await (except ? local.except(except) : local).fetchSockets()) {
        socket.emit(`tokenInvalid:${socket.id}`);
        socket.emit('tokenInvalid:undefined');
        socket.disconnect(true);
      }
    }
  }
  io.on('revokeSockets', (room, except) => {
    revokeLocal(room, except).catch((error: unknown) => options.logger.warn({ err: error }, 'socket revoke failed'));
  });

  for (const name of NAMESPACES) {
    const nsp = io.of(name);
    // Checked in the middleware, so handlers are attached synchronously on `connection` and no event the client
    // sends right after connecting is lost. An expired token or an ended session is let through without claims so the
    // client receives the spec's invalid-token event before the server disconnects it.
    nsp.use((socket: AppSocket, next) => {
      const token = handshakeToken(socket.handshake.auth);
      if (!token) return next(new Error('ERR_INVALID_TOKEN'));
      options.tokens.verifyAccess(token).then(
        async (claims) => {
          try {
            const session = sessionCheck ? await sessionCheck(claims) : null;
            if (session) {
              if (!(await reserve(claims.userId))) return next(limitError());
              socket.data.claims = { ...claims, profile: session.profile };
              next();
              // socket.io connects the socket (or drops it, its client gone) on the next tick: from then on it is
              // counted as connected, or not at all.
              setImmediate(() => bump(claims.userId, -1));
              return;
            }
            next();
          } catch (error) {
            options.logger.warn({ err: error }, 'socket session check failed');
            next(new Error('ERR_SERVICE_UNAVAILABLE'));
          }
        },
        (error: unknown) => {
          if (error instanceof AppError && error.code === 'ERR_SESSION_EXPIRED') next();
          else next(new Error('ERR_INVALID_TOKEN'));
        },
      );
    });
    nsp.on('connection', (socket: AppSocket) => {
      const claims = socket.data.claims as AccessClaims | undefined;
      if (!claims) {
        socket.emit(`tokenInvalid:${socket.id}`);
        socket.emit('tokenInvalid:undefined');
        socket.disconnect(true);
        return;
      }
      const own = connectedByUser.get(claims.userId) ?? new Set<string>();
      connectedByUser.set(claims.userId, own.add(socket.id));
      socket.once('disconnect', () => {
        own.delete(socket.id);
        if (own.size === 0 && connectedByUser.get(claims.userId) === own) connectedByUser.delete(claims.userId);
      });
      void socket.join([
        rooms.tenant(claims.tenantId),
        rooms.user(claims.userId),
        rooms.profile(claims.tenantId, claims.profile),
        ...(claims.sessionId ? [rooms.session(claims.sessionId)] : []),
      ]);
      for (const listener of listeners) listener(socket);
    });
  }

  return {
    publish(room, event, ...args) {
      for (const name of NAMESPACES) {
        (io.of(name).to(room).emit as (event: string, ...a: unknown[]) => boolean)(event, ...args);
      }
    },
    onConnection(listener) {
      listeners.push(listener);
    },
    setSessionCheck(check) {
      sessionCheck = check;
    },
    async disconnect(room, { revoke = false, except } = {}) {
      if (revoke) {
        io.serverSideEmit('revokeSockets', room, except ?? null);
        return revokeLocal(room, except ?? null);
      }
      for (const name of NAMESPACES) {
        const target = io.of(name).in(room);
        (except ? target.except(except) : target).disconnectSockets(true);
      }
    },
    async countInRoom(room) {
      let total = 0;
      for (const name of NAMESPACES) total += (await io.of(name).in(room).fetchSockets()).length;
      return total;
    },
    async connectedUserIds(tenantId) {
      const ids = new Set<number>();
      for (const name of NAMESPACES) {
        for (const socket of await io.of(name).in(rooms.tenant(tenantId)).fetchSockets()) {
          const claims = socket.data.claims as AccessClaims | undefined;
          if (claims) ids.add(claims.userId);
        }
      }
      return [...ids];
    },
    async close() {
      // socket.io first, then its Redis client.
      await new Promise<void>((resolve) => {
        void io.close(() => resolve());
      });
      // The adapter publishes its close message on the way out: let it flush before QUIT.
      if (redis)
        await new Promise((resolve) => setTimeout(resolve, 20)).then(() => redis.quit()).catch(() => undefined);
      options.logger.debug('realtime closed');
    },
  };
}

/** The handshake's token (raw or JSON-encoded); absent, null, "null", "undefined" and empty are no token. */
function handshakeToken(auth: unknown): string | undefined {
  const raw = (auth as { token?: unknown } | undefined)?.token;
  if (typeof raw !== 'string') return undefined;
  const token = raw.startsWith('"') ? safeJson(raw) : raw;
  return token && token !== 'null' && token !== 'undefined' ? token : undefined;
}

function safeJson(value: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'string' ? parsed : undefined;
  } catch {
    return undefined;
  }
}
