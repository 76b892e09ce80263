/**
 * Cross-origin access (`CORS_ORIGINS`): deployments may serve the web client from another origin than the API.
 * Without a list there are no CORS headers at all (same origin only). The same list gates socket.io handshakes.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fastifyCors from '@fastify/cors';

const PREFLIGHT_MAX_AGE_SECONDS = 600;

export async function registerCors(app: FastifyInstance, origins: readonly string[]): Promise<void> {
  if (origins.length === 0) return;
  await app.register(fastifyCors, {
    origin: [...origins],
    // The refresh token is an httpOnly cookie: a client on another origin sends it only with credentials.
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'Accept', 'Accept-Language'],
    exposedHeaders: ['Content-Disposition'],
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
  });
}

/**
 * Whether a socket.io handshake may proceed: no Origin (a non-browser client: a bearer token is its credential),
 * the API's own origin or host, or a listed origin. socket.io's `cors` option only writes headers; the refusal
 * here also covers the websocket transport, which browsers never check against CORS.
 */
export function socketOriginAllowed(
  request: Pick<IncomingMessage, 'headers'>,
  publicUrl: string,
  origins: readonly string[],
): boolean {
  const origin = request.headers.origin;
  if (!origin) return true;
  if (origins.includes(origin)) return true;
  try {
    const url = new URL(origin);
    return url.origin === new URL(publicUrl).origin || url.host === request.headers.host;
  } catch {
    return false;
  }
}
