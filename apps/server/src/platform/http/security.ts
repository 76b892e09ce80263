/**
 * Security headers for every answer (API, web app, docs) through @fastify/helmet. The policy is written out in
 * full instead of extending helmet's defaults: its default `upgrade-insecure-requests` would break a plain-http
 * install (a LAN address without TLS), so that directive and HSTS follow PUBLIC_URL's scheme.
 */
import type { FastifyInstance } from 'fastify';
import fastifyHelmet from '@fastify/helmet';

export interface SecurityOptions {
  publicUrl: string;
  corsOrigins: readonly string[];
}

const HSTS_MAX_AGE_SECONDS = 180 * 24 * 3600;

/** The web app's policy: its own scripts only, Mantine's injected styles, media from this server. */
export function contentSecurityPolicy(options: SecurityOptions): Record<string, string[]> {
  const publicUrl = new URL(options.publicUrl);
  const secure = publicUrl.protocol === 'https:';
  const socketOrigin = `${secure ? 'wss' : 'ws'}://${publicUrl.host}`;
  const media = ["'self'", 'data:', 'blob:', publicUrl.origin];
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': media,
    'media-src': media,
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", publicUrl.origin, socketOrigin, ...options.corsOrigins],
    'worker-src': ["'self'", 'blob:'],
    'manifest-src': ["'self'"],
    'frame-ancestors': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    ...(secure ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

/** Same policy as a header value (the docs' relaxed variant is built from it). */
export function serializePolicy(directives: Record<string, string[]>): string {
  return Object.entries(directives)
    .map(([name, values]) => [name, ...new Set(values)].join(' '))
    .join('; ');
}

/**
 * Swagger UI (/api/docs) loads its bundle and styles from its own prefix and renders inline SVG and style
 * attributes; it may be framed by nobody either. It differs from the app only where its bundle needs it.
 */
export function docsContentSecurityPolicy(options: SecurityOptions): string {
  const directives = contentSecurityPolicy(options);
  return serializePolicy({ ...directives, 'img-src': [...directives['img-src']!, 'https:'] });
}

export async function registerSecurityHeaders(app: FastifyInstance, options: SecurityOptions): Promise<void> {
  const secure = new URL(options.publicUrl).protocol === 'https:';
  await app.register(fastifyHelmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(options) },
    // A web client on another origin shows media (<img src="API/api/media/...">): that needs cross-origin loads.
    crossOriginResourcePolicy: { policy: options.corsOrigins.length > 0 ? 'cross-origin' : 'same-origin' },
    crossOriginEmbedderPolicy: false,
    frameguard: { action: 'deny' },
    strictTransportSecurity: secure ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: false } : false,
    referrerPolicy: { policy: 'no-referrer' },
  });
}
