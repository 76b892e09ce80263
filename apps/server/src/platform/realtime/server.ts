/**
 * socket.io on the API's port, on the default namespace and on `/api` (clients built with URL_API=<host>/api).
 * The handshake carries the access token; a bad token gets the invalid-token event, then a disconnect. Sockets join
 * rooms for their tenant, user and profile; `publish` is the one way to emit.
 */
import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import { createAdapter as createRedisAdapter } from '@socket.io/redis-streams-adapter';
import { createAdapter as createPostgresAdapter } from '@socket.io/postgres-adapter';
import type pg from 'pg';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { ClientToServerEvents, ServerToClientEvents } from '@conversa/shared';
import type { TokenService, AccessClaims } from '../http/tokens.js';

export type AppSocket = Socket<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  { claims: AccessClaims }
>;
type EmitArgs = Parameters<ServerToClientEvents[keyof ServerToClientEvents]>;

export const rooms = {
  tenant: (tenantId: number) => `tenant:${tenantId}`,
  user: (userId: number) => `user:${userId}`,
  profile: (tenantId: number, profile: string) => `profile:${tenantId}:${profile}`,
};

export interface Realtime {
  publish(room: string | string[], event: keyof ServerToClientEvents & string, ...args: EmitArgs): void;
  /** Called for every authenticated socket (modules register their client-event handlers here). */
  onConnection(listener: (socket: AppSocket) => void): void;
  /** How many sockets (across every node) are in a room. */
  countInRoom(room: string): Promise<number>;
  /** The ids of the users of a tenant with at least one socket (across every node). */
  connectedUserIds(tenantId: number): Promise<number[]>;
  close(): Promise<void>;
}

const NAMESPACES = ['/', '/api'] as const;
const ATTACHMENTS_TABLE = `CREATE TABLE IF NOT EXISTS socket_io_attachments (
  id bigserial UNIQUE, created_at timestamptz DEFAULT now(), payload bytea)`;

export function createRealtime(options: {
  httpServer: HttpServer;
  tokens: TokenService;
  logger: Logger;
  adapter: 'none' | 'redis' | 'postgres';
  redisUrl?: string | undefined;
  pool?: pg.Pool | undefined;
}): Realtime {
  const io = new Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, { claims: AccessClaims }>(
    options.httpServer,
    { cors: { origin: true, credentials: true }, maxHttpBufferSize: 1e6, serveClient: false },
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

  for (const name of NAMESPACES) {
    const nsp = io.of(name);
    // The token is checked in the middleware, so handlers are attached synchronously on `connection` and no event
    // the client sends right after connecting is lost. A bad token is still let through the middleware so the
    // client can receive the spec's invalid-token event before the server disconnects it.
    nsp.use((socket: AppSocket, next) => {
      const auth = socket.handshake.auth as { token?: unknown } | undefined;
      const raw = typeof auth?.token === 'string' ? auth.token : undefined;
      const token = raw?.startsWith('"') ? safeJson(raw) : raw;
      options.tokens.verifyAccess(token).then(
        (claims) => {
          socket.data.claims = claims;
          next();
        },
        () => next(),
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
      void socket.join([
        rooms.tenant(claims.tenantId),
        rooms.user(claims.userId),
        rooms.profile(claims.tenantId, claims.profile),
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

function safeJson(value: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'string' ? parsed : undefined;
  } catch {
    return undefined;
  }
}
